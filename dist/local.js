import { createRequire as __wiregateCreateRequire } from 'node:module'; const require = __wiregateCreateRequire(import.meta.url);

// src/local.ts
import { mkdir as mkdir4, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join7, resolve as resolve3 } from "node:path";

// src/actionDir.ts
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
function actionDir(moduleUrl) {
  return dirname(dirname(fileURLToPath(moduleUrl)));
}

// src/errors.ts
var WiregateError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "WiregateError";
  }
};
var EXIT_ERROR = 2;
function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// src/harness.ts
import { spawn as spawn2 } from "node:child_process";
import { existsSync } from "node:fs";
import { rename as rename2 } from "node:fs/promises";
import { join as join3 } from "node:path";

// node_modules/@actions/exec/lib/exec.js
import { StringDecoder } from "string_decoder";

// node_modules/@actions/exec/lib/toolrunner.js
import * as os from "os";
import * as events from "events";
import * as child from "child_process";
import * as path3 from "path";

// node_modules/@actions/io/lib/io.js
import * as path2 from "path";

// node_modules/@actions/io/lib/io-util.js
import * as fs from "fs";
import * as path from "path";
var __awaiter = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve4) {
      resolve4(value);
    });
  }
  return new (P || (P = Promise))(function(resolve4, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve4(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var { chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink } = fs.promises;
var IS_WINDOWS = process.platform === "win32";
var READONLY = fs.constants.O_RDONLY;
function exists(fsPath) {
  return __awaiter(this, void 0, void 0, function* () {
    try {
      yield stat(fsPath);
    } catch (err) {
      if (err.code === "ENOENT") {
        return false;
      }
      throw err;
    }
    return true;
  });
}
function isRooted(p) {
  p = normalizeSeparators(p);
  if (!p) {
    throw new Error('isRooted() parameter "p" cannot be empty');
  }
  if (IS_WINDOWS) {
    return p.startsWith("\\") || /^[A-Z]:/i.test(p);
  }
  return p.startsWith("/");
}
function tryGetExecutablePath(filePath, extensions) {
  return __awaiter(this, void 0, void 0, function* () {
    let stats = void 0;
    try {
      stats = yield stat(filePath);
    } catch (err) {
      if (err.code !== "ENOENT") {
        console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
      }
    }
    if (stats && stats.isFile()) {
      if (IS_WINDOWS) {
        const upperExt = path.extname(filePath).toUpperCase();
        if (extensions.some((validExt) => validExt.toUpperCase() === upperExt)) {
          return filePath;
        }
      } else {
        if (isUnixExecutable(stats)) {
          return filePath;
        }
      }
    }
    const originalFilePath = filePath;
    for (const extension of extensions) {
      filePath = originalFilePath + extension;
      stats = void 0;
      try {
        stats = yield stat(filePath);
      } catch (err) {
        if (err.code !== "ENOENT") {
          console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
        }
      }
      if (stats && stats.isFile()) {
        if (IS_WINDOWS) {
          try {
            const directory = path.dirname(filePath);
            const upperName = path.basename(filePath).toUpperCase();
            for (const actualName of yield readdir(directory)) {
              if (upperName === actualName.toUpperCase()) {
                filePath = path.join(directory, actualName);
                break;
              }
            }
          } catch (err) {
            console.log(`Unexpected error attempting to determine the actual case of the file '${filePath}': ${err}`);
          }
          return filePath;
        } else {
          if (isUnixExecutable(stats)) {
            return filePath;
          }
        }
      }
    }
    return "";
  });
}
function normalizeSeparators(p) {
  p = p || "";
  if (IS_WINDOWS) {
    p = p.replace(/\//g, "\\");
    return p.replace(/\\\\+/g, "\\");
  }
  return p.replace(/\/\/+/g, "/");
}
function isUnixExecutable(stats) {
  return (stats.mode & 1) > 0 || (stats.mode & 8) > 0 && process.getgid !== void 0 && stats.gid === process.getgid() || (stats.mode & 64) > 0 && process.getuid !== void 0 && stats.uid === process.getuid();
}

// node_modules/@actions/io/lib/io.js
var __awaiter2 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve4) {
      resolve4(value);
    });
  }
  return new (P || (P = Promise))(function(resolve4, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve4(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
function which(tool, check) {
  return __awaiter2(this, void 0, void 0, function* () {
    if (!tool) {
      throw new Error("parameter 'tool' is required");
    }
    if (check) {
      const result = yield which(tool, false);
      if (!result) {
        if (IS_WINDOWS) {
          throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also verify the file has a valid extension for an executable file.`);
        } else {
          throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also check the file mode to verify the file is executable.`);
        }
      }
      return result;
    }
    const matches = yield findInPath(tool);
    if (matches && matches.length > 0) {
      return matches[0];
    }
    return "";
  });
}
function findInPath(tool) {
  return __awaiter2(this, void 0, void 0, function* () {
    if (!tool) {
      throw new Error("parameter 'tool' is required");
    }
    const extensions = [];
    if (IS_WINDOWS && process.env["PATHEXT"]) {
      for (const extension of process.env["PATHEXT"].split(path2.delimiter)) {
        if (extension) {
          extensions.push(extension);
        }
      }
    }
    if (isRooted(tool)) {
      const filePath = yield tryGetExecutablePath(tool, extensions);
      if (filePath) {
        return [filePath];
      }
      return [];
    }
    if (tool.includes(path2.sep)) {
      return [];
    }
    const directories = [];
    if (process.env.PATH) {
      for (const p of process.env.PATH.split(path2.delimiter)) {
        if (p) {
          directories.push(p);
        }
      }
    }
    const matches = [];
    for (const directory of directories) {
      const filePath = yield tryGetExecutablePath(path2.join(directory, tool), extensions);
      if (filePath) {
        matches.push(filePath);
      }
    }
    return matches;
  });
}

// node_modules/@actions/exec/lib/toolrunner.js
import { setTimeout } from "timers";
var __awaiter3 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve4) {
      resolve4(value);
    });
  }
  return new (P || (P = Promise))(function(resolve4, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve4(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var IS_WINDOWS2 = process.platform === "win32";
var ToolRunner = class extends events.EventEmitter {
  constructor(toolPath, args, options) {
    super();
    if (!toolPath) {
      throw new Error("Parameter 'toolPath' cannot be null or empty.");
    }
    this.toolPath = toolPath;
    this.args = args || [];
    this.options = options || {};
  }
  _debug(message) {
    if (this.options.listeners && this.options.listeners.debug) {
      this.options.listeners.debug(message);
    }
  }
  _getCommandString(options, noPrefix) {
    const toolPath = this._getSpawnFileName();
    const args = this._getSpawnArgs(options);
    let cmd = noPrefix ? "" : "[command]";
    if (IS_WINDOWS2) {
      if (this._isCmdFile()) {
        cmd += toolPath;
        for (const a of args) {
          cmd += ` ${a}`;
        }
      } else if (options.windowsVerbatimArguments) {
        cmd += `"${toolPath}"`;
        for (const a of args) {
          cmd += ` ${a}`;
        }
      } else {
        cmd += this._windowsQuoteCmdArg(toolPath);
        for (const a of args) {
          cmd += ` ${this._windowsQuoteCmdArg(a)}`;
        }
      }
    } else {
      cmd += toolPath;
      for (const a of args) {
        cmd += ` ${a}`;
      }
    }
    return cmd;
  }
  _processLineBuffer(data, strBuffer, onLine) {
    try {
      let s = strBuffer + data.toString();
      let n = s.indexOf(os.EOL);
      while (n > -1) {
        const line = s.substring(0, n);
        onLine(line);
        s = s.substring(n + os.EOL.length);
        n = s.indexOf(os.EOL);
      }
      return s;
    } catch (err) {
      this._debug(`error processing line. Failed with error ${err}`);
      return "";
    }
  }
  _getSpawnFileName() {
    if (IS_WINDOWS2) {
      if (this._isCmdFile()) {
        return process.env["COMSPEC"] || "cmd.exe";
      }
    }
    return this.toolPath;
  }
  _getSpawnArgs(options) {
    if (IS_WINDOWS2) {
      if (this._isCmdFile()) {
        let argline = `/D /S /C "${this._windowsQuoteCmdArg(this.toolPath)}`;
        for (const a of this.args) {
          argline += " ";
          argline += options.windowsVerbatimArguments ? a : this._windowsQuoteCmdArg(a);
        }
        argline += '"';
        return [argline];
      }
    }
    return this.args;
  }
  _endsWith(str, end) {
    return str.endsWith(end);
  }
  _isCmdFile() {
    const upperToolPath = this.toolPath.toUpperCase();
    return this._endsWith(upperToolPath, ".CMD") || this._endsWith(upperToolPath, ".BAT");
  }
  _windowsQuoteCmdArg(arg) {
    if (!this._isCmdFile()) {
      return this._uvQuoteCmdArg(arg);
    }
    if (!arg) {
      return '""';
    }
    const cmdSpecialChars = [
      " ",
      "	",
      "&",
      "(",
      ")",
      "[",
      "]",
      "{",
      "}",
      "^",
      "=",
      ";",
      "!",
      "'",
      "+",
      ",",
      "`",
      "~",
      "|",
      "<",
      ">",
      '"'
    ];
    let needsQuotes = false;
    for (const char of arg) {
      if (cmdSpecialChars.some((x) => x === char)) {
        needsQuotes = true;
        break;
      }
    }
    if (!needsQuotes) {
      return arg;
    }
    let reverse = '"';
    let quoteHit = true;
    for (let i = arg.length; i > 0; i--) {
      reverse += arg[i - 1];
      if (quoteHit && arg[i - 1] === "\\") {
        reverse += "\\";
      } else if (arg[i - 1] === '"') {
        quoteHit = true;
        reverse += '"';
      } else {
        quoteHit = false;
      }
    }
    reverse += '"';
    return reverse.split("").reverse().join("");
  }
  _uvQuoteCmdArg(arg) {
    if (!arg) {
      return '""';
    }
    if (!arg.includes(" ") && !arg.includes("	") && !arg.includes('"')) {
      return arg;
    }
    if (!arg.includes('"') && !arg.includes("\\")) {
      return `"${arg}"`;
    }
    let reverse = '"';
    let quoteHit = true;
    for (let i = arg.length; i > 0; i--) {
      reverse += arg[i - 1];
      if (quoteHit && arg[i - 1] === "\\") {
        reverse += "\\";
      } else if (arg[i - 1] === '"') {
        quoteHit = true;
        reverse += "\\";
      } else {
        quoteHit = false;
      }
    }
    reverse += '"';
    return reverse.split("").reverse().join("");
  }
  _cloneExecOptions(options) {
    options = options || {};
    const result = {
      cwd: options.cwd || process.cwd(),
      env: options.env || process.env,
      silent: options.silent || false,
      windowsVerbatimArguments: options.windowsVerbatimArguments || false,
      failOnStdErr: options.failOnStdErr || false,
      ignoreReturnCode: options.ignoreReturnCode || false,
      delay: options.delay || 1e4
    };
    result.outStream = options.outStream || process.stdout;
    result.errStream = options.errStream || process.stderr;
    return result;
  }
  _getSpawnOptions(options, toolPath) {
    options = options || {};
    const result = {};
    result.cwd = options.cwd;
    result.env = options.env;
    result["windowsVerbatimArguments"] = options.windowsVerbatimArguments || this._isCmdFile();
    if (options.windowsVerbatimArguments) {
      result.argv0 = `"${toolPath}"`;
    }
    return result;
  }
  /**
   * Exec a tool.
   * Output will be streamed to the live console.
   * Returns promise with return code
   *
   * @param     tool     path to tool to exec
   * @param     options  optional exec options.  See ExecOptions
   * @returns   number
   */
  exec() {
    return __awaiter3(this, void 0, void 0, function* () {
      if (!isRooted(this.toolPath) && (this.toolPath.includes("/") || IS_WINDOWS2 && this.toolPath.includes("\\"))) {
        this.toolPath = path3.resolve(process.cwd(), this.options.cwd || process.cwd(), this.toolPath);
      }
      this.toolPath = yield which(this.toolPath, true);
      return new Promise((resolve4, reject) => __awaiter3(this, void 0, void 0, function* () {
        this._debug(`exec tool: ${this.toolPath}`);
        this._debug("arguments:");
        for (const arg of this.args) {
          this._debug(`   ${arg}`);
        }
        const optionsNonNull = this._cloneExecOptions(this.options);
        if (!optionsNonNull.silent && optionsNonNull.outStream) {
          optionsNonNull.outStream.write(this._getCommandString(optionsNonNull) + os.EOL);
        }
        const state = new ExecState(optionsNonNull, this.toolPath);
        state.on("debug", (message) => {
          this._debug(message);
        });
        if (this.options.cwd && !(yield exists(this.options.cwd))) {
          return reject(new Error(`The cwd: ${this.options.cwd} does not exist!`));
        }
        const fileName = this._getSpawnFileName();
        const cp = child.spawn(fileName, this._getSpawnArgs(optionsNonNull), this._getSpawnOptions(this.options, fileName));
        let stdbuffer = "";
        if (cp.stdout) {
          cp.stdout.on("data", (data) => {
            if (this.options.listeners && this.options.listeners.stdout) {
              this.options.listeners.stdout(data);
            }
            if (!optionsNonNull.silent && optionsNonNull.outStream) {
              optionsNonNull.outStream.write(data);
            }
            stdbuffer = this._processLineBuffer(data, stdbuffer, (line) => {
              if (this.options.listeners && this.options.listeners.stdline) {
                this.options.listeners.stdline(line);
              }
            });
          });
        }
        let errbuffer = "";
        if (cp.stderr) {
          cp.stderr.on("data", (data) => {
            state.processStderr = true;
            if (this.options.listeners && this.options.listeners.stderr) {
              this.options.listeners.stderr(data);
            }
            if (!optionsNonNull.silent && optionsNonNull.errStream && optionsNonNull.outStream) {
              const s = optionsNonNull.failOnStdErr ? optionsNonNull.errStream : optionsNonNull.outStream;
              s.write(data);
            }
            errbuffer = this._processLineBuffer(data, errbuffer, (line) => {
              if (this.options.listeners && this.options.listeners.errline) {
                this.options.listeners.errline(line);
              }
            });
          });
        }
        cp.on("error", (err) => {
          state.processError = err.message;
          state.processExited = true;
          state.processClosed = true;
          state.CheckComplete();
        });
        cp.on("exit", (code2) => {
          state.processExitCode = code2;
          state.processExited = true;
          this._debug(`Exit code ${code2} received from tool '${this.toolPath}'`);
          state.CheckComplete();
        });
        cp.on("close", (code2) => {
          state.processExitCode = code2;
          state.processExited = true;
          state.processClosed = true;
          this._debug(`STDIO streams have closed for tool '${this.toolPath}'`);
          state.CheckComplete();
        });
        state.on("done", (error, exitCode) => {
          if (stdbuffer.length > 0) {
            this.emit("stdline", stdbuffer);
          }
          if (errbuffer.length > 0) {
            this.emit("errline", errbuffer);
          }
          cp.removeAllListeners();
          if (error) {
            reject(error);
          } else {
            resolve4(exitCode);
          }
        });
        if (this.options.input) {
          if (!cp.stdin) {
            throw new Error("child process missing stdin");
          }
          cp.stdin.end(this.options.input);
        }
      }));
    });
  }
};
function argStringToArray(argString) {
  const args = [];
  let inQuotes = false;
  let escaped = false;
  let arg = "";
  function append(c) {
    if (escaped && c !== '"') {
      arg += "\\";
    }
    arg += c;
    escaped = false;
  }
  for (let i = 0; i < argString.length; i++) {
    const c = argString.charAt(i);
    if (c === '"') {
      if (!escaped) {
        inQuotes = !inQuotes;
      } else {
        append(c);
      }
      continue;
    }
    if (c === "\\" && escaped) {
      append(c);
      continue;
    }
    if (c === "\\" && inQuotes) {
      escaped = true;
      continue;
    }
    if (c === " " && !inQuotes) {
      if (arg.length > 0) {
        args.push(arg);
        arg = "";
      }
      continue;
    }
    append(c);
  }
  if (arg.length > 0) {
    args.push(arg.trim());
  }
  return args;
}
var ExecState = class _ExecState extends events.EventEmitter {
  constructor(options, toolPath) {
    super();
    this.processClosed = false;
    this.processError = "";
    this.processExitCode = 0;
    this.processExited = false;
    this.processStderr = false;
    this.delay = 1e4;
    this.done = false;
    this.timeout = null;
    if (!toolPath) {
      throw new Error("toolPath must not be empty");
    }
    this.options = options;
    this.toolPath = toolPath;
    if (options.delay) {
      this.delay = options.delay;
    }
  }
  CheckComplete() {
    if (this.done) {
      return;
    }
    if (this.processClosed) {
      this._setResult();
    } else if (this.processExited) {
      this.timeout = setTimeout(_ExecState.HandleTimeout, this.delay, this);
    }
  }
  _debug(message) {
    this.emit("debug", message);
  }
  _setResult() {
    let error;
    if (this.processExited) {
      if (this.processError) {
        error = new Error(`There was an error when attempting to execute the process '${this.toolPath}'. This may indicate the process failed to start. Error: ${this.processError}`);
      } else if (this.processExitCode !== 0 && !this.options.ignoreReturnCode) {
        error = new Error(`The process '${this.toolPath}' failed with exit code ${this.processExitCode}`);
      } else if (this.processStderr && this.options.failOnStdErr) {
        error = new Error(`The process '${this.toolPath}' failed because one or more lines were written to the STDERR stream`);
      }
    }
    if (this.timeout) {
      clearTimeout(this.timeout);
      this.timeout = null;
    }
    this.done = true;
    this.emit("done", error, this.processExitCode);
  }
  static HandleTimeout(state) {
    if (state.done) {
      return;
    }
    if (!state.processClosed && state.processExited) {
      const message = `The STDIO streams did not close within ${state.delay / 1e3} seconds of the exit event from process '${state.toolPath}'. This may indicate a child process inherited the STDIO streams and has not yet exited.`;
      state._debug(message);
    }
    state._setResult();
  }
};

// node_modules/@actions/exec/lib/exec.js
var __awaiter4 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve4) {
      resolve4(value);
    });
  }
  return new (P || (P = Promise))(function(resolve4, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve4(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
function exec(commandLine, args, options) {
  return __awaiter4(this, void 0, void 0, function* () {
    const commandArgs = argStringToArray(commandLine);
    if (commandArgs.length === 0) {
      throw new Error(`Parameter 'commandLine' cannot be null or empty.`);
    }
    const toolPath = commandArgs[0];
    args = commandArgs.slice(1).concat(args || []);
    const runner = new ToolRunner(toolPath, args, options);
    return runner.exec();
  });
}
function getExecOutput(commandLine, args, options) {
  return __awaiter4(this, void 0, void 0, function* () {
    var _a, _b;
    let stdout = "";
    let stderr = "";
    const stdoutDecoder = new StringDecoder("utf8");
    const stderrDecoder = new StringDecoder("utf8");
    const originalStdoutListener = (_a = options === null || options === void 0 ? void 0 : options.listeners) === null || _a === void 0 ? void 0 : _a.stdout;
    const originalStdErrListener = (_b = options === null || options === void 0 ? void 0 : options.listeners) === null || _b === void 0 ? void 0 : _b.stderr;
    const stdErrListener = (data) => {
      stderr += stderrDecoder.write(data);
      if (originalStdErrListener) {
        originalStdErrListener(data);
      }
    };
    const stdOutListener = (data) => {
      stdout += stdoutDecoder.write(data);
      if (originalStdoutListener) {
        originalStdoutListener(data);
      }
    };
    const listeners = Object.assign(Object.assign({}, options === null || options === void 0 ? void 0 : options.listeners), { stdout: stdOutListener, stderr: stdErrListener });
    const exitCode = yield exec(commandLine, args, Object.assign(Object.assign({}, options), { listeners }));
    stdout += stdoutDecoder.end();
    stderr += stderrDecoder.end();
    return {
      exitCode,
      stdout,
      stderr
    };
  });
}

// src/proc.ts
async function run(command, args, opts = {}) {
  try {
    const r = await getExecOutput(command, args, {
      cwd: opts.cwd,
      env: opts.env ? { ...process.env, ...opts.env } : void 0,
      ignoreReturnCode: true,
      silent: !opts.stream,
      outStream: opts.stream ? process.stderr : void 0,
      errStream: process.stderr
    });
    return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    return { code: 127, stdout: "", stderr: err instanceof Error ? err.message : String(err) };
  }
}
function firstLine(text2) {
  return text2.split("\n").map((s) => s.trim()).find((s) => s !== "") ?? "";
}

// src/harness.ts
async function goVersion() {
  const go = await run("go", ["env", "GOVERSION"]);
  if (go.code !== 0) throw new WiregateError("Go is not on PATH: add actions/setup-go before wiregate");
  return go.stdout.trim();
}
async function buildHarness(actionDir2, binDir2, env2 = {}) {
  const harnessDir = join3(actionDir2, "harness");
  if (!existsSync(join3(harnessDir, "go.mod"))) {
    throw new WiregateError(`the action's harness is missing (${harnessDir}/go.mod): use the action from its repository`);
  }
  await goVersion();
  const bin = join3(binDir2, "wiregate");
  if (existsSync(bin)) return { bin, reused: true };
  const staged = `${bin}.${process.pid}`;
  const built = await run("go", ["build", "-trimpath", "-o", staged, "./cmd/wiregate"], { cwd: harnessDir, env: env2 });
  if (built.code !== 0) {
    throw new WiregateError(`building the wiregate harness failed: ${firstLine(built.stderr) || `exit code ${built.code}`}`);
  }
  await rename2(staged, bin);
  return { bin, reused: false };
}
var FORWARDED = ["SIGINT", "SIGTERM"];
async function runWiregate(bin, args, cwd, env2 = {}) {
  const child2 = spawn2(bin, args, { cwd, stdio: ["ignore", 2, 2], env: { ...process.env, ...env2 } });
  const forward = (signal) => {
    child2.kill(signal);
  };
  for (const s of FORWARDED) process.on(s, forward);
  try {
    return await new Promise((resolve4, reject) => {
      child2.on("error", reject);
      child2.on("close", (code2) => resolve4(code2 ?? 2));
    });
  } finally {
    for (const s of FORWARDED) process.off(s, forward);
  }
}

// src/log.ts
var stderrLog = {
  info: (m) => process.stderr.write(`${m}
`),
  warning: (m, a) => process.stderr.write(`warning: ${where(a)}${m}
`),
  error: (m, a) => process.stderr.write(`error: ${where(a)}${m}
`)
};
function where(a) {
  if (!a?.file) return "";
  return `${[a.file, a.startLine, a.startColumn].filter((x) => x !== void 0).join(":")}: `;
}

// src/localArgs.ts
var USAGE = `usage: npm run gate -- [--base REF] [--out DIR] [wiregate gate flags\u2026]
Gates the working tree against REF (default HEAD), prints report.md, writes .wiregate/ (or --out).
Every input of the action is a flag of the same name (--messages, --count, --pipeline=false, \u2026).`;
function splitArgs(argv) {
  const ours = {};
  const passed = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(base|out)(?:=(.*))?$/.exec(argv[i]);
    if (!m) passed.push(argv[i]);
    else ours[m[1]] = m[2] ?? argv[++i] ?? "";
  }
  return { ours, passed };
}

// src/run.ts
import { existsSync as existsSync3 } from "node:fs";
import { mkdir as mkdir3, readFile as readFile2, writeFile } from "node:fs/promises";
import { join as join6, resolve as resolve2 } from "node:path";

// src/buf.ts
import { existsSync as existsSync2 } from "node:fs";
import { mkdir as mkdir2 } from "node:fs/promises";
import { join as join4 } from "node:path";
var BUF_VERSION = "1.75.0";
async function versionOf(path4) {
  const r = await run(path4, ["--version"]);
  return r.code === 0 ? r.stdout.trim() : void 0;
}
async function locateBuf(searchDirs, toolCache, log) {
  if (await versionOf("buf") === BUF_VERSION) return "buf";
  for (const dir of searchDirs) {
    const candidate = join4(dir, "node_modules", ".bin", "buf");
    if (existsSync2(candidate) && await versionOf(candidate) === BUF_VERSION) return candidate;
  }
  const prefix = join4(toolCache, "wiregate-buf", BUF_VERSION);
  const installed = join4(prefix, "node_modules", ".bin", "buf");
  if (existsSync2(installed) && await versionOf(installed) === BUF_VERSION) return installed;
  log.info(`installing @bufbuild/buf@${BUF_VERSION} into ${prefix}`);
  await mkdir2(prefix, { recursive: true });
  const npm = await run("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `@bufbuild/buf@${BUF_VERSION}`]);
  if (npm.code !== 0 || await versionOf(installed) !== BUF_VERSION) {
    throw new WiregateError(`could not install @bufbuild/buf@${BUF_VERSION} with npm: ${firstLine(npm.stderr) || "buf did not run"}`);
  }
  return installed;
}

// src/cache.ts
import { createHash } from "node:crypto";
import { readdir as readdir2, readFile } from "node:fs/promises";
import { join as join5, relative as relative2 } from "node:path";
function cacheLayout(root, goVersion2, harnessHash) {
  return {
    root,
    paths: [root, `!${join5(root, "go-mod", "cache", "download", "**", "*.zip")}`],
    binDir: binDir(root, goVersion2, harnessHash),
    env: { GOCACHE: join5(root, "go-build"), GOMODCACHE: join5(root, "go-mod"), WIREGATE_CACHE: join5(root, "programs") }
  };
}
function binDir(root, goVersion2, harnessHash) {
  return join5(root, "bin", `${goVersion2}-${harnessHash.slice(0, 16)}`);
}
function cacheKeys(platform, goVersion2, harnessHash, schemasHash) {
  const prefix = `wiregate-v1-${platform}-${goVersion2}-${harnessHash.slice(0, 16)}-`;
  return { key: prefix + schemasHash.slice(0, 16), restoreKeys: [prefix] };
}
async function hashTree(dir, keep) {
  const h = createHash("sha256");
  const walk = async (d) => {
    const entries = (await readdir2(d, { withFileTypes: true })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const e of entries) {
      const p = join5(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".git" && e.name !== "node_modules") await walk(p);
      } else if (e.isFile() && keep(relative2(dir, p))) {
        const b = await readFile(p);
        h.update(`${relative2(dir, p)} ${b.length}
`).update(b);
      }
    }
  };
  await walk(dir);
  return h.digest("hex");
}
var harnessFiles = (rel) => rel.endsWith(".go") && !rel.endsWith("_test.go") && !rel.split("/").includes("testdata") || rel === "go.mod" || rel === "go.sum";
var schemaFiles = (rel) => /\.(proto|avsc)$|(^|\/)(buf\.yaml|buf\.lock|buf\.work\.yaml)$/.test(rel);
async function restoreCache(backend, layout, keys, log) {
  const start = Date.now();
  const stage = (note) => ({ name: "cache restore", seconds: (Date.now() - start) / 1e3, note });
  try {
    const matched = await backend.restore(layout.paths, keys.key, keys.restoreKeys);
    if (matched === void 0) return { stage: stage(`miss: ${keys.key}`) };
    return { stage: stage(matched === keys.key ? `hit: ${matched}` : `partial hit: ${matched}`), matched };
  } catch (err) {
    log.warning(`wiregate's cache could not be restored (the run goes on, only slower): ${errorMessage(err)}`);
    return { stage: stage(`error: ${errorMessage(err)}`) };
  }
}
async function saveCache(backend, layout, keys, matched, log) {
  if (matched === keys.key) return "not saved: the entry exists";
  try {
    const id = await backend.save(layout.paths, keys.key);
    return `saved: ${keys.key} (entry ${id})`;
  } catch (err) {
    log.warning(`wiregate's cache could not be saved (the next run will build again): ${errorMessage(err)}`);
    return `not saved: ${errorMessage(err)}`;
  }
}

// src/render/safe.ts
function text(s) {
  return oneLine(s).replace(/[\\`*[\]~$]/g, "\\$&").replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\_").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/^[#+=-]/, "\\$&").replace(/^(\d+)([.)])/, "$1\\$2").replace(/@/g, "\u200B@\u200B").replace(/\b(https?|ftp):\/\//gi, "$1:/\u200B/").replace(/\bwww\./gi, "www\u200B.");
}
function code(s) {
  const line = oneLine(s);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run2) => run2.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") || line === "" ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}
function codeBlock(info, body) {
  return "```" + info + "\n" + body.replace(/`/g, "\u02CB").trimEnd() + "\n```";
}
function cell(rendered) {
  return rendered.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}
function mermaidLabel(s) {
  return oneLine(s).replace(/[^\w .:/+-]/g, "_");
}
function oneLine(s) {
  return s.replace(/[\r\n\u2028\u2029]+/g, " ");
}

// src/render/checks.ts
var CHECKS = [
  { kind: "lint", title: "buf lint", stage: "buf lint" },
  { kind: "breaking", title: "buf breaking", stage: "buf breaking" },
  { kind: "avro", title: "Avro compatibility", stage: "avro-compatibility" }
];
var RELEASE_STAGES = {
  breaking: "buf breaking (release)",
  avro: "avro-compatibility (release)"
};
var SHOWN_PER_CHECK = 5;
function checksTable(report) {
  const rows = ["| check | result | findings |", "|---|---|---|"];
  const release = report.breaking_against;
  for (const { kind: kind2, title, stage } of CHECKS) {
    if (!release || kind2 === "lint") {
      rows.push(checkRow(report, kind2, title, stage, void 0));
      continue;
    }
    rows.push(checkRow(report, kind2, `${title} vs the base`, stage, void 0));
    const releaseTitle = `${title} vs release \`${cell(release.ref)}\``;
    if (release.same_as_base) rows.push(`| ${releaseTitle} | = the base (same commit) | |`);
    else rows.push(checkRow(report, kind2, releaseTitle, RELEASE_STAGES[kind2], release.ref));
  }
  return rows.join("\n");
}
function checkRow(report, kind2, title, stage, against2) {
  const findings = report.findings.filter((f) => f.kind === kind2 && f.against === against2);
  const violations = report.violations.filter((v) => v.kind === kind2 && v.against === against2);
  const allowed = violations.length > 0 && violations.every((v) => v.allowed);
  const ran = report.stages.find((s) => s.name === stage);
  let status;
  if (ran === void 0) status = "\u2014 not run";
  else if (ran.error) status = "\u26D4 could not run";
  else if (findings.length === 0 && violations.length === 0) status = "\u2705 ok";
  else if (allowed) status = `\u26A0\uFE0F ${count(findings, violations)} (allowed)`;
  else if (violations.length > 0) status = `\u274C ${count(findings, violations)}`;
  else status = `\u2139\uFE0F ${findings.length} (not gating)`;
  const shown = findings.slice(0, SHOWN_PER_CHECK).map(findingText);
  if (findings.length > SHOWN_PER_CHECK) shown.push(`\u2026 ${findings.length - SHOWN_PER_CHECK} more`);
  return `| ${title} | ${status} | ${cell(shown.join("<br>"))} |`;
}
function count(findings, violations) {
  return Math.max(findings.length, violations.length);
}
function findingText(f) {
  const where2 = [f.file, f.line, f.column].filter((x) => x !== void 0 && x !== "" && x !== 0).join(":");
  const rule = f.rule ? ` ${text(f.rule)}` : "";
  return `${code(where2)}${rule}: ${text(f.message)}`;
}

// src/render/numbers.ts
function pct(x, signed = true) {
  if (x === null || x === void 0 || !Number.isFinite(x)) return "n/a";
  const s = Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1);
  return signed && x >= 0 ? `+${s}%` : `${s}%`;
}
function pValue(p) {
  if (p === null || p === void 0 || !Number.isFinite(p)) return "";
  return p < 1e-3 ? "p<0.001" : `p=${p.toFixed(3)}`;
}
function seconds(s) {
  const abs = Math.abs(s);
  if (abs >= 1) return `${sig(s)} s`;
  if (abs >= 1e-3) return `${sig(s * 1e3)} ms`;
  if (abs >= 1e-6) return `${sig(s * 1e6)} \xB5s`;
  return `${sig(s * 1e9)} ns`;
}
function instructions(n) {
  return Math.abs(n) >= 1e4 ? `${sig(n / 1e3)}k` : integer(n);
}
function bytes(b) {
  return b.toFixed(1);
}
function rate(r) {
  const abs = Math.abs(r);
  if (abs >= 1e6) return `${sig(r / 1e6)}M`;
  if (abs >= 1e3) return `${sig(r / 1e3)}k`;
  return sig(r);
}
function sig(x) {
  const abs = Math.abs(x);
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  return x.toFixed(2);
}
function measure(x, unit) {
  switch (unit) {
    case "sec/op":
      return seconds(x);
    case "B/msg":
      return `${bytes(x)} B/msg`;
    case "records/s":
      return `${rate(x)} records/s`;
    case "instr/op":
      return `${instructions(x)} instr/op`;
    default:
      return `${sig(x)} ${text(unit)}`;
  }
}
function integer(n) {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
function mebibytes(b) {
  const [v, unit] = b >= 2 ** 30 ? [b / 2 ** 30, "GiB"] : [b / 2 ** 20, "MiB"];
  return `${Number.isInteger(v) ? v : sig(v)} ${unit}`;
}
function shortSha(sha) {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha;
}

// src/render/details.ts
function details(summary2, body) {
  return `<details><summary>${summary2}</summary>

${body}

</details>`;
}
function benchstatDetails(report) {
  if (!report.benchstat) return "";
  return details("benchstat (base vs head)", codeBlock("text", report.benchstat));
}
function noiseDetails(report) {
  const rows = [];
  for (const m of report.messages) {
    for (const f of m.formats) {
      for (const metric2 of f.metrics) {
        if (metric2.noise_floor_pct !== void 0) {
          rows.push(`| ${cell(code(`${m.name}/${f.format}/${metric2.name}`))} | ${cell(text(metric2.unit))} | \xB1${pct(metric2.noise_floor_pct, false)} |`);
        }
      }
    }
  }
  for (const p of report.pipeline) {
    if (p.noise_floor_pct !== void 0) {
      rows.push(`| ${cell(code(`${p.message}/${p.format}/pipeline`))} | records/s | \xB1${pct(p.noise_floor_pct, false)} |`);
    }
  }
  if (rows.length === 0) return "";
  return details("noise floor", ["| metric | unit | noise floor |", "|---|---|---|", ...rows].join("\n"));
}
function environmentDetails(report) {
  const e = report.env;
  const broker = e.broker ? `${e.broker}${e.broker_reason ? ` (${e.broker_reason})` : ""}` : void 0;
  const items = [
    ["runner", e.runner],
    ["Go", e.go_version],
    ["OS", e.os],
    ["CPU", e.cpu && e.cores ? `${e.cpu} \xD7 ${e.cores} cores` : e.cpu],
    ["rounds per side", e.unchanged_rounds ? `${e.count} (unchanged schemas: ${e.unchanged_rounds})` : e.count],
    ["alpha", e.alpha],
    ["broker", broker],
    ["pipeline backlog", backlogLimits(e)],
    ["consumer cap", e.consumer_cap],
    ["broker peak RSS", e.broker_peak_rss_bytes !== void 0 ? mebibytes(e.broker_peak_rss_bytes) : void 0],
    ["consumer peak RSS", e.consumer_peak_rss_bytes !== void 0 ? mebibytes(e.consumer_peak_rss_bytes) : void 0],
    ["instruction counter", counter(report)]
  ];
  const rows = items.filter(([, v]) => v !== void 0 && v !== "").map(([k, v]) => `| ${k} | ${cell(text(String(v)))} |`);
  if (rows.length === 0) return "";
  return details("environment", ["| | |", "|---|---|", ...rows].join("\n"));
}
function backlogLimits(e) {
  if (e.pipeline_n === void 0) return void 0;
  const records = `\u2264 ${integer(e.pipeline_n)} records`;
  return e.pipeline_bytes === void 0 ? records : `${records} and \u2264 ${mebibytes(e.pipeline_bytes)} each`;
}
function counter(report) {
  const c = report.cpu_cost;
  if (!c?.tool) return void 0;
  return c.installed ? `${c.tool}, ${c.installed}` : c.tool;
}
function stagesDetails(report) {
  if (report.stages.length === 0) return "";
  const rows = report.stages.map(
    (s) => `| ${cell(text(s.name))} | ${s.seconds.toFixed(1)} s | ${s.error ? `\u274C ${cell(text(s.error))}` : cell(text(s.note ?? ""))} |`
  );
  const total = report.stages.reduce((sum, s) => sum + s.seconds, 0);
  rows.push(`| **total** | ${total.toFixed(1)} s | |`);
  return details("stage timings", ["| stage | time | |", "|---|---|---|", ...rows].join("\n"));
}
function ignoredDetails(report) {
  const ignored = report.ignored ?? [];
  if (ignored.length === 0) return "";
  const rows = ignored.map((i) => `| ${cell(code(i.subject))} | ${cell(text(i.reason))} |`);
  return details(`ignored by wiregate.yaml (${ignored.length})`, ["| subject | reason |", "|---|---|", ...rows].join("\n"));
}
function errorsDetails(report) {
  const errors = report.errors ?? [];
  if (errors.length === 0) return "";
  return details("errors", errors.map((e) => `- ${text(e)}`).join("\n"));
}

// src/render/history.ts
function historyCharts(report, name) {
  const h = report.history;
  const m = h?.messages.find((x) => x.name === name);
  if (!h || !m) return "";
  const units = [...new Set(m.series.map((s) => s.unit))];
  return units.map((unit) => chart(h, m, m.series.filter((s) => s.unit === unit), unit)).filter((c) => c !== "").join("\n\n");
}
function chart(h, m, series, unit) {
  const keep = m.commits.map((_, i) => i).filter((i) => series.every((s) => typeof s.values[i] === "number"));
  if (keep.length < 2) return "";
  const lines = series.map((s) => keep.map((i) => round(s.values[i])));
  const all = lines.flat();
  const [lo, hi] = yRange(Math.min(...all), Math.max(...all));
  const labels = keep.map((i) => label(m.commits[i].sha, m.commits[i].head === true));
  const main = keep.filter((i) => m.commits[i].head !== true);
  const branch = m.commits[main.at(-1)].ref || h.branch;
  const legend = series.map((s, j) => `${j + 1}. ${s.format} ${s.metric}: ${measure(lines[j][0], unit)} \u2192 ${measure(lines[j].at(-1), unit)}`).join(" \xB7 ");
  return [
    "```mermaid",
    "xychart-beta",
    `    title "${safe(m.name)} ${safe(unit)}: last ${main.length} commits of ${safe(branch)}, then this PR"`,
    `    x-axis [${labels.map((l) => JSON.stringify(l)).join(", ")}]`,
    `    y-axis "${safe(unit)}" ${lo} --> ${hi}`,
    ...lines.map((l) => `    line [${l.join(", ")}]`),
    "```",
    `<sub>Lines in order \u2014 ${legend}. The last point is this PR.</sub>`
  ].join("\n");
}
function historyNote(report) {
  const h = report.history;
  if (!h) return "";
  if (h.recorded) {
    const tries = h.attempts && h.attempts > 1 ? ` (${h.attempts} attempts: other runs pushed first)` : "";
    return `<sub>History: recorded ${shortSha(h.recorded)} on \`${h.branch}\`${tries}.</sub>`;
  }
  return h.note ? `<sub>History (\`${h.branch}\`): ${h.note}.</sub>` : "";
}
function yRange(min, max) {
  const pad = max > min ? (max - min) * 0.2 : Math.max(1, Math.abs(max) * 0.05);
  const lo = Math.floor(min - pad);
  return [min >= 0 ? Math.max(0, lo) : lo, Math.ceil(max + pad)];
}
function label(sha, head) {
  return head ? "PR" : shortSha(sha).replace(/[^0-9A-Za-z._-]/g, "");
}
function safe(s) {
  return s.replace(/["\\\n]/g, "");
}
function round(x) {
  return Math.round(x * 10) / 10;
}

// src/render/messages.ts
function messageSection(report, message) {
  const pipeline2 = report.pipeline.filter((p) => p.message === message.name);
  const counted = message.formats.some((f) => f.metrics.some((m) => m.unit === INSTR));
  const cpuHead = counted ? " CPU instr/op (encode, decode) |" : "";
  const rows = [`| format | bytes/msg | encode | decode |${cpuHead} pipeline records/s |`, `|---|---|---|---|${counted ? "---|" : ""}---|`];
  for (const f of message.formats) {
    const p = pipeline2.find((x) => x.format === f.format);
    const cpu = counted ? ` ${cpuCell(f)} |` : "";
    rows.push(
      `| ${cell(text(f.format))}${f.aliasing ? " (aliasing)" : ""} | ${sizeCell(f)} | ${timeCell(metric(f, "encode"))} | ${timeCell(metric(f, "decode"))} |${cpu} ${pipelineCell(p)} |`
    );
  }
  const chart2 = bytesChart(message);
  const title = `### ${code(message.name)}${message.unchanged_schema ? " \xB7 unchanged schema" : ""}`;
  return [title, unchangedNote(message), rows.join("\n"), backlogNote(report, pipeline2), chart2, historyCharts(report, message.name)].filter((s) => s !== "").join("\n\n");
}
function backlogNote(report, pipeline2) {
  const b = pipeline2.find((p) => p.backlog)?.backlog;
  if (!b || b.budget_bytes === void 0) return "";
  const asked = report.env.pipeline_n !== void 0 ? `, not the ${integer(report.env.pipeline_n)} asked for` : "";
  return `<sub>Pipeline backlog: N = ${integer(b.n)} records${asked} (byte budget ${mebibytes(b.budget_bytes)} / ${integer(b.mean_bytes)} B per ${text(b.format)} record).</sub>`;
}
var INSTR = "instr/op";
function unchangedNote(message) {
  if (!message.unchanged_schema) return "";
  return "<sub>Unchanged schema: its descriptor and everything it uses, its Avro schema and its samples are identical on both sides, so both programs run the same code for it; its time and throughput deltas are measurement noise (code layout, the runner) and do not fail the gate, so it is timed with fewer rounds (input `unchanged-rounds`).</sub>";
}
function metric(f, name, unit = "sec/op") {
  return f.metrics.find((m) => m.name === name && m.unit === unit);
}
function sizeCell(f) {
  if (!f.size) return "\u2014";
  const { base, head, delta_pct } = f.size;
  if (base === head) return `${bytes(head)} (=)`;
  return `${bytes(base)} \u2192 ${bytes(head)} (${pct(delta_pct)})`;
}
function change(deltaPct, p, significant) {
  const d = significant ? pct(deltaPct) : "~";
  const pv = pValue(p);
  return pv ? `(${d}, ${pv})` : `(${d})`;
}
function timeCell(m) {
  if (!m || !m.base || !m.head) return "\u2014";
  return `${seconds(m.base.center)} \u2192 ${seconds(m.head.center)} ${change(m.delta_pct, m.p, m.significant)}`;
}
function cpuCell(f) {
  const parts = ["encode", "decode"].map((op) => {
    const m = metric(f, op, INSTR);
    if (!m || !m.base || !m.head) return "\u2014";
    const d = m.base.center === m.head.center ? "=" : m.significant ? pct(m.delta_pct) : "~";
    return `${instructions(m.base.center)} \u2192 ${instructions(m.head.center)} (${d})`;
  });
  return parts.every((p) => p === "\u2014") ? "\u2014" : parts.join("<br>");
}
function pipelineCell(p) {
  if (!p || !p.base || !p.head) return "\u2014";
  const significant = p.significant ?? (p.p !== null && p.p !== void 0);
  return `${rate(p.base.center)} \u2192 ${rate(p.head.center)} ${change(p.delta_pct, p.p, significant)}`;
}
function bytesChart(message) {
  const sized = message.formats.filter((f) => f.size);
  if (sized.length === 0) return "";
  const base = sized.map((f) => num(f.size.base));
  const head = sized.map((f) => num(f.size.head));
  const top = Math.ceil(Math.max(...base, ...head) * 1.1);
  return [
    "```mermaid",
    "xychart-beta",
    `    title "bytes/msg, base then head: ${mermaidLabel(message.name)}"`,
    `    x-axis [${sized.map((f) => `"${mermaidLabel(f.format)}"`).join(", ")}]`,
    `    y-axis "bytes/msg" 0 --> ${top}`,
    `    bar [${base.join(", ")}]`,
    `    bar [${head.join(", ")}]`,
    "```"
  ].join("\n");
}
function num(x) {
  return Math.round(x * 10) / 10;
}

// src/render/skipped.ts
function skippedList(report) {
  const skipped = report.skipped ?? [];
  if (skipped.length === 0) return "";
  const lines = skipped.map((s) => {
    const side = s.side === "base" ? " (the base only: head is measured, with nothing to compare against)" : "";
    return `- ${code(s.message)} in ${code(s.file)}${side}: ${text(s.reason)}`;
  });
  return [`#### Not measured (${skipped.length})`, ...lines].join("\n");
}

// src/render/verdict.ts
var KIND_WORDS = {
  lint: ["lint finding", "lint findings"],
  breaking: ["breaking change", "breaking changes"],
  avro: ["Avro incompatibility", "Avro incompatibilities"],
  size: ["size regression", "size regressions"],
  cpu: ["CPU regression", "CPU regressions"],
  time: ["time regression", "time regressions"],
  throughput: ["throughput regression", "throughput regressions"],
  error: ["error", "errors"]
};
function verdictLine(report) {
  const blocking = report.violations.filter((v) => !v.allowed);
  const allowed = report.violations.filter((v) => v.allowed);
  const error = blocking.find((v) => v.kind === "error");
  let line;
  if (error) {
    line = `## \u26D4 wiregate could not run: ${text(error.detail)}`;
  } else if (report.result === "pass") {
    line = "## \u2705 wiregate: pass";
    line += allowed.length > 0 ? ` \u2014 ${reasons(allowed)} allowed by label` : " \u2014 no schema or wire-cost regressions";
  } else {
    line = `## \u274C wiregate: fail \u2014 ${reasons(blocking) || "see below"}`;
    if (allowed.length > 0) line += `; allowed by label: ${reasons(allowed)}`;
  }
  return line;
}
function reasons(violations) {
  const parts = [];
  const byKind = /* @__PURE__ */ new Map();
  for (const v of violations) {
    const k = v.against ? `${v.kind} ${v.against}` : v.kind;
    byKind.set(k, [...byKind.get(k) ?? [], v]);
  }
  for (const vs of byKind.values()) {
    const kind2 = vs[0].kind;
    const release = vs[0].against ? ` vs release ${code(vs[0].against)}` : "";
    if (kind2 === "size" || kind2 === "cpu" || kind2 === "time" || kind2 === "throughput") {
      const shown = vs.slice(0, 2).map((v) => `${kind2} ${pct(v.delta_pct)} on ${text(v.subject)}${limit(v)}`);
      if (vs.length > 2) shown.push(`${vs.length - 2} more ${KIND_WORDS[kind2][1]}`);
      parts.push(...shown);
    } else {
      const [one, many] = Object.hasOwn(KIND_WORDS, kind2) ? KIND_WORDS[kind2] : [code(kind2), code(kind2)];
      parts.push(`${vs.length} ${vs.length === 1 ? one : many}${release}`);
    }
  }
  return parts.join(", ");
}
function limit(v) {
  return v.threshold_pct === void 0 ? "" : ` (limit ${pct(v.threshold_pct, false)})`;
}

// src/render/violations.ts
function violationsTable(report) {
  if (report.violations.length === 0) return "";
  const rows = ["| | kind | subject | detail |", "|---|---|---|---|"];
  for (const v of report.violations) {
    const mark = v.allowed ? "\u26A0\uFE0F allowed" : "\u274C";
    const numbers = [
      v.unit && v.base !== void 0 && v.head !== void 0 ? `${measure(v.base, v.unit)} \u2192 ${measure(v.head, v.unit)}` : "",
      v.delta_pct !== void 0 ? pct(v.delta_pct) : "",
      v.threshold_pct !== void 0 ? `limit ${pct(v.threshold_pct, false)}` : "",
      pValue(v.p),
      v.base_n && v.head_n ? `n=${v.base_n}+${v.head_n}` : ""
    ].filter((s) => s !== "");
    const detail = numbers.length > 0 ? `${text(v.detail)} (${numbers.join(", ")})` : text(v.detail);
    rows.push(`| ${mark} | ${kindCell(v, report)} | ${cell(code(v.subject))} | ${cell(detail)} |`);
  }
  return rows.join("\n");
}
function kindCell(v, report) {
  if (v.against) return `${text(v.kind)}: breaks release ${cell(code(v.against))}`;
  if (report.breaking_against && (v.kind === "breaking" || v.kind === "avro")) return `${text(v.kind)}: breaks the base`;
  return text(v.kind);
}

// src/render/report.ts
function budgetNotes(report) {
  const notes = [
    ["Bench rounds", report.plan?.bench?.note],
    ["Pipeline", report.plan?.pipeline?.note],
    ["Instruction counts", report.plan?.cpu?.note]
  ];
  return notes.filter(([, n]) => n).map(([stage, n]) => `> \u23F1 ${stage}, ${text(n)}`).join("\n>\n");
}
function renderReport(report, ctx = {}) {
  const rev = (r) => `${code(r.ref || "?")} @ ${text(shortSha(r.sha) || "?")}`;
  const revs = `base ${rev(report.base)} \u2192 head ${rev(report.head)}`;
  const sections = [
    verdictLine(report),
    ctx.runUrl ? `${revs} \xB7 [run](${ctx.runUrl})` : revs,
    (report.warnings ?? []).map((w) => `> \u26A0\uFE0F ${text(w)}`).join("\n>\n"),
    budgetNotes(report),
    report.cpu_cost?.unavailable ? `> \u2139\uFE0F Instructions not counted: ${text(report.cpu_cost.unavailable)}.` : "",
    violationsTable(report),
    "#### Schema checks",
    checksTable(report),
    ...report.messages.map((m) => messageSection(report, m)),
    report.messages.length > 0 ? '<sub>Cells: base \u2192 head (delta, p). "~" means the change is not significant at alpha (CPU: within what identical counts move). CPU is instructions per operation counted under Valgrind: exact, the same on any runner. Chart bars: base first, head second.</sub>' : "",
    skippedList(report),
    historyNote(report),
    benchstatDetails(report),
    noiseDetails(report),
    ignoredDetails(report),
    environmentDetails(report),
    stagesDetails(report),
    errorsDetails(report)
  ];
  return sections.filter((s) => s !== "").join("\n\n") + "\n";
}

// src/jsonShape.ts
var Fields = class _Fields {
  constructor(file, path4, o) {
    this.file = file;
    this.path = path4;
    this.o = o;
  }
  file;
  path;
  o;
  static of(file, path4, v) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) fail(file, path4, "an object");
    return new _Fields(file, path4, v);
  }
  at(key) {
    return this.path ? `${this.path}.${key}` : key;
  }
  /** where names a field for an error line: "report.json: violations[2].kind". */
  where(key) {
    return `${this.file}: ${this.at(key)}`;
  }
  raw(key) {
    return Object.hasOwn(this.o, key) ? this.o[key] : void 0;
  }
  has(key) {
    const v = this.raw(key);
    return v !== void 0 && v !== null;
  }
  string(key) {
    const v = this.raw(key);
    if (typeof v !== "string") fail(this.file, this.at(key), "a string");
    return v;
  }
  number(key) {
    const v = this.raw(key);
    if (typeof v !== "number" || !Number.isFinite(v)) fail(this.file, this.at(key), "a number");
    return v;
  }
  int(key) {
    const v = this.number(key);
    if (!Number.isInteger(v)) fail(this.file, this.at(key), "an integer");
    return v;
  }
  bool(key) {
    const v = this.raw(key);
    if (typeof v !== "boolean") fail(this.file, this.at(key), "true or false");
    return v;
  }
  /** optional reads a field that may be absent: undefined then (null too:
   * Go writes a nil pointer as null). */
  optional(key, kind2) {
    return this.has(key) ? this.scalar(key, kind2) : void 0;
  }
  /** nullable reads a field the contract writes as null when unknown. */
  nullable(key, kind2) {
    return this.has(key) ? this.scalar(key, kind2) : null;
  }
  scalar(key, kind2) {
    const read = {
      string: (k) => this.string(k),
      number: (k) => this.number(k),
      int: (k) => this.int(k),
      bool: (k) => this.bool(k)
    };
    return read[kind2](key);
  }
  object(key) {
    return _Fields.of(this.file, this.at(key), this.raw(key));
  }
  /** list reads an array of items; absent or null is empty (Go writes a nil
   * slice as null). */
  list(key, item) {
    const v = this.raw(key);
    if (v === void 0 || v === null) return [];
    if (!Array.isArray(v)) fail(this.file, this.at(key), "a list");
    return v.map((x, i) => item(_Fields.of(this.file, `${this.at(key)}[${i}]`, x)));
  }
  /** numbersOrNull reads a list of numbers where null marks a gap. */
  numbersOrNull(key) {
    const v = this.raw(key);
    if (v === void 0 || v === null) return [];
    if (!Array.isArray(v) || !v.every((x) => x === null || typeof x === "number" && Number.isFinite(x))) fail(this.file, this.at(key), "a list of numbers");
    return v;
  }
  strings(key) {
    const v = this.raw(key);
    if (v === void 0 || v === null) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) fail(this.file, this.at(key), "a list of strings");
    return v;
  }
};
function fail(file, path4, want) {
  throw new WiregateError(`${file}: ${path4 || "the top level"} is not ${want}`);
}
function defined(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== void 0));
}

// src/report.ts
var REPORT_VERSION = 1;
function errorReport(base, head, message, findings = [], stages = []) {
  const subject = findings.find((f) => f.file)?.file ?? "wiregate";
  return {
    version: REPORT_VERSION,
    result: "fail",
    base,
    head,
    violations: [{ kind: "error", subject, detail: message, allowed: false }],
    messages: [],
    pipeline: [],
    findings,
    env: {},
    stages,
    errors: [message]
  };
}
function parseReport(text2, source = "report.json") {
  let raw;
  try {
    raw = JSON.parse(text2);
  } catch (err) {
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : "")?.[1];
    throw new WiregateError(`${source} is not valid JSON${at ? ` (at byte ${at})` : ""}`);
  }
  const r = Fields.of(source, "", raw);
  const version = r.has("version") ? r.number("version") : void 0;
  if (version !== REPORT_VERSION) {
    throw new WiregateError(`${source} has version ${version ?? "none"}, this action reads version ${REPORT_VERSION}`);
  }
  const result = r.string("result");
  if (result !== "pass" && result !== "fail") throw new WiregateError(`${source}: result is not "pass" or "fail"`);
  const rev = (f) => ({ ref: f.string("ref"), sha: f.string("sha") });
  return defined({
    version,
    result,
    base: r.has("base") ? rev(r.object("base")) : { ref: "", sha: "" },
    head: r.has("head") ? rev(r.object("head")) : { ref: "", sha: "" },
    violations: r.list("violations", violation),
    messages: r.list(
      "messages",
      (m) => defined({ name: m.string("name"), formats: m.list("formats", format), unchanged_schema: m.optional("unchanged_schema", "bool") })
    ),
    pipeline: r.list("pipeline", pipeline),
    findings: r.list("findings", finding),
    ignored: r.list("ignored", (i) => ({ subject: i.string("subject"), reason: i.string("reason") })),
    env: r.has("env") ? env(r.object("env")) : {},
    stages: r.list(
      "stages",
      (s) => defined({ name: s.string("name"), seconds: s.number("seconds"), error: s.optional("error", "string"), note: s.optional("note", "string") })
    ),
    benchstat: r.optional("benchstat", "string"),
    errors: r.strings("errors"),
    warnings: r.strings("warnings"),
    plan: r.has("plan") ? plan(r.object("plan")) : void 0,
    breaking_against: r.has("breaking_against") ? against(r.object("breaking_against")) : void 0,
    history: r.has("history") ? history(r.object("history")) : void 0,
    skipped: r.list("skipped", (s) => ({ message: s.string("message"), file: s.string("file"), reason: s.string("reason"), side: s.string("side") })),
    cpu_cost: r.has("cpu_cost") ? cpuCost(r.object("cpu_cost")) : void 0
  });
}
function cpuCost(f) {
  return defined({
    mode: f.string("mode"),
    tool: f.optional("tool", "string"),
    installed: f.optional("installed", "string"),
    unavailable: f.optional("unavailable", "string")
  });
}
function plan(f) {
  return defined({
    budget_seconds: f.number("budget_seconds"),
    bench: f.has("bench") ? ((b) => defined({ count: b.int("count"), benchtime: b.string("benchtime"), untimed: b.strings("untimed"), note: b.optional("note", "string") }))(f.object("bench")) : void 0,
    pipeline: f.has("pipeline") ? ((p) => defined({ untimed: p.strings("untimed"), note: p.optional("note", "string") }))(f.object("pipeline")) : void 0,
    cpu: f.has("cpu") ? ((c) => defined({ uncounted: c.strings("uncounted"), note: c.optional("note", "string") }))(f.object("cpu")) : void 0
  });
}
function against(f) {
  return defined({ input: f.string("input"), ref: f.string("ref"), sha: f.string("sha"), same_as_base: f.optional("same_as_base", "bool") });
}
function history(f) {
  return defined({
    branch: f.string("branch"),
    points: f.int("points"),
    recorded: f.optional("recorded", "string"),
    attempts: f.optional("attempts", "int"),
    note: f.optional("note", "string"),
    messages: f.list("messages", (m) => ({
      name: m.string("name"),
      commits: m.list(
        "commits",
        (c) => defined({ sha: c.string("sha"), ref: c.optional("ref", "string"), date: c.optional("date", "string"), head: c.optional("head", "bool") })
      ),
      series: m.list("series", (s) => ({ format: s.string("format"), metric: s.string("metric"), unit: s.string("unit"), values: s.numbersOrNull("values") }))
    }))
  });
}
function kind(f) {
  const k = f.string("kind");
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(k)) throw new WiregateError(`${f.where("kind")} is not a kind (a lower-case word)`);
  return k;
}
function violation(f) {
  return defined({
    kind: kind(f),
    subject: f.string("subject"),
    detail: f.string("detail"),
    unit: f.optional("unit", "string"),
    base: f.optional("base", "number"),
    head: f.optional("head", "number"),
    delta_pct: f.optional("delta_pct", "number"),
    threshold_pct: f.optional("threshold_pct", "number"),
    p: f.optional("p", "number"),
    base_n: f.optional("base_n", "int"),
    head_n: f.optional("head_n", "int"),
    allowed: f.bool("allowed"),
    against: f.optional("against", "string"),
    file: f.optional("file", "string"),
    line: f.optional("line", "int"),
    column: f.optional("column", "int")
  });
}
function finding(f) {
  return defined({
    kind: kind(f),
    file: f.string("file"),
    line: f.optional("line", "int"),
    column: f.optional("column", "int"),
    rule: f.optional("rule", "string"),
    message: f.string("message"),
    against: f.optional("against", "string")
  });
}
function summary(f, key) {
  if (!f.has(key)) return null;
  const s = f.object(key);
  if (!s.has("center")) return null;
  return defined({ center: s.number("center"), lo: s.optional("lo", "number"), hi: s.optional("hi", "number"), n: s.int("n") });
}
function size(s) {
  return defined({ base: s.number("base"), head: s.number("head"), delta_pct: s.nullable("delta_pct", "number"), vs_json: s.optional("vs_json", "number") });
}
function format(f) {
  return defined({
    format: f.string("format"),
    size: f.has("size") ? size(f.object("size")) : null,
    metrics: f.list(
      "metrics",
      (m) => defined({
        name: m.string("name"),
        unit: m.string("unit"),
        base: summary(m, "base"),
        head: summary(m, "head"),
        delta_pct: m.nullable("delta_pct", "number"),
        p: m.nullable("p", "number"),
        significant: m.bool("significant"),
        delta: m.optional("delta", "string"),
        noise_floor_pct: m.optional("noise_floor_pct", "number")
      })
    ),
    aliasing: f.optional("aliasing", "bool")
  });
}
function pipeline(f) {
  return defined({
    message: f.string("message"),
    format: f.string("format"),
    broker: f.string("broker"),
    broker_reason: f.optional("broker_reason", "string"),
    base: summary(f, "base"),
    head: summary(f, "head"),
    delta_pct: f.nullable("delta_pct", "number"),
    p: f.nullable("p", "number"),
    significant: f.optional("significant", "bool"),
    base_ns_per_msg: f.optional("base_ns_per_msg", "number"),
    head_ns_per_msg: f.optional("head_ns_per_msg", "number"),
    raw_ns_per_msg: f.optional("raw_ns_per_msg", "number"),
    noise_floor_pct: f.optional("noise_floor_pct", "number"),
    backlog: f.has("backlog") ? backlog(f.object("backlog")) : void 0
  });
}
function backlog(f) {
  return defined({ n: f.int("n"), budget_bytes: f.optional("budget_bytes", "int"), mean_bytes: f.number("mean_bytes"), format: f.string("format") });
}
function env(f) {
  return defined({
    go_version: f.optional("go_version", "string"),
    os: f.optional("os", "string"),
    cpu: f.optional("cpu", "string"),
    cores: f.optional("cores", "int"),
    count: f.optional("count", "int"),
    unchanged_rounds: f.optional("unchanged_rounds", "int"),
    alpha: f.optional("alpha", "number"),
    broker: f.optional("broker", "string"),
    broker_reason: f.optional("broker_reason", "string"),
    consumer_cap: f.optional("consumer_cap", "string"),
    bench_pin: f.optional("bench_pin", "string"),
    pipeline_n: f.optional("pipeline_n", "int"),
    pipeline_bytes: f.optional("pipeline_bytes", "int"),
    broker_peak_rss_bytes: f.optional("broker_peak_rss_bytes", "int"),
    consumer_peak_rss_bytes: f.optional("consumer_peak_rss_bytes", "int"),
    runner: f.optional("runner", "string")
  });
}

// src/run.ts
async function runGate(plan2, env2, render = {}) {
  const outDir = resolve2(env2.outDir);
  await mkdir3(outDir, { recursive: true });
  await mkdir3(env2.tmpDir, { recursive: true });
  const reportJson = join6(outDir, "report.json");
  let report;
  let exitCode;
  let cached;
  try {
    const buf = await locateBuf([process.cwd(), env2.actionDir], env2.toolCache, env2.log);
    const before = [];
    if (env2.cache) {
      cached = await restore(env2.cache.backend, env2.cache.root, env2.actionDir, env2.log);
      before.push(cached.stage);
    }
    const start = Date.now();
    const dir = cached?.layout.binDir ?? binDir(env2.toolCache, await goVersion(), await hashTree(join6(env2.actionDir, "harness"), harnessFiles));
    const { bin, reused } = await buildHarness(env2.actionDir, dir, cached?.layout.env);
    before.push({ name: "build wiregate", seconds: (Date.now() - start) / 1e3, note: reused ? "reused" : "built" });
    const argv = [...gateArgv(plan2, env2, buf, outDir), `--stages-before=${JSON.stringify(before)}`, ...env2.gateFlags];
    exitCode = await runWiregate(bin, argv, process.cwd(), cached?.layout.env);
    if (!existsSync3(reportJson)) {
      throw new WiregateError(`wiregate gate wrote no report.json (exit code ${exitCode})`);
    }
    report = parseReport(await readFile2(reportJson, "utf8"));
  } catch (err) {
    if (!(err instanceof WiregateError)) env2.log.info(err instanceof Error && err.stack ? err.stack : String(err));
    const message = errorMessage(err);
    env2.log.error(message, { title: "wiregate could not run" });
    const stopped = errorReport({ ref: plan2.baseLabel, sha: plan2.baseRef }, { ref: plan2.headLabel ?? "", sha: plan2.headSha ?? "" }, message);
    return finish(stopped, EXIT_ERROR, outDir, render, true);
  } finally {
    if (env2.cache && cached) env2.log.info(`wiregate cache: ${await saveCache(env2.cache.backend, cached.layout, cached.keys, cached.matched, env2.log)}`);
  }
  return finish(report, exitCode, outDir, render, false);
}
async function restore(backend, root, actionDir2, log) {
  const harnessHash = await hashTree(join6(actionDir2, "harness"), harnessFiles);
  const go = await goVersion();
  const keys = cacheKeys(`${process.platform}-${process.arch}`, go, harnessHash, await hashTree(process.cwd(), schemaFiles));
  const layout = cacheLayout(root, go, harnessHash);
  const { stage, matched } = await restoreCache(backend, layout, keys, log);
  return { layout, keys, matched, stage };
}
async function finish(report, exitCode, outDir, render, writeJson) {
  const reportJson = join6(outDir, "report.json");
  if (writeJson) await writeFile(reportJson, JSON.stringify(report, null, 2) + "\n");
  const markdown = renderReport(report, render);
  const reportMarkdown = join6(outDir, "report.md");
  await writeFile(reportMarkdown, markdown);
  return { report, markdown, exitCode, reportJson, reportMarkdown };
}
function gateArgv(plan2, env2, buf, outDir) {
  const argv = [
    "gate",
    `--base-ref=${plan2.baseRef}`,
    `--base-label=${plan2.baseLabel}`,
    `--labels=${JSON.stringify(plan2.labels)}`,
    `--harness-dir=${join6(env2.actionDir, "harness")}`,
    `--buf=${buf}`,
    `--tmp-dir=${env2.tmpDir}`,
    `--out=${outDir}`
  ];
  if (plan2.headSha) argv.push(`--head-sha=${plan2.headSha}`);
  if (plan2.headLabel) argv.push(`--head-label=${plan2.headLabel}`);
  if (plan2.recordHistory) argv.push("--record-history");
  return argv;
}

// src/local.ts
async function local(argv) {
  const { ours, passed } = splitArgs(argv);
  if (passed.some((a) => a === "-h" || a === "--help" || a === "-help")) {
    process.stdout.write(`${USAGE}

wiregate gate flags:
`);
    const tmp = join7(tmpdir(), "wiregate-local");
    await mkdir4(tmp, { recursive: true });
    const { bin } = await buildHarness(actionDir(import.meta.url), await mkdtemp(join7(tmp, "wiregate-bin-")));
    return runWiregate(bin, ["gate", "--help"], process.cwd());
  }
  const base = ours.base || "HEAD";
  const outDir = resolve3(ours.out || ".wiregate");
  const result = await runGate(
    { baseRef: base, baseLabel: base, labels: [] },
    {
      actionDir: actionDir(import.meta.url),
      tmpDir: join7(tmpdir(), "wiregate-local"),
      toolCache: join7(tmpdir(), "wiregate-tools"),
      outDir,
      gateFlags: passed,
      log: stderrLog
    }
  );
  process.stdout.write(result.markdown);
  process.stderr.write(`
wiregate: ${result.report.result} (exit ${result.exitCode}); reports in ${outDir}
`);
  return result.exitCode;
}
try {
  process.exitCode = await local(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`wiregate: ${errorMessage(err)}
`);
  process.exitCode = EXIT_ERROR;
}
