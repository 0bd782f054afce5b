import { createRequire as __wiregateCreateRequire } from 'node:module'; const require = __wiregateCreateRequire(import.meta.url);

// src/local.ts
import { mkdir as mkdir4, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join8, resolve as resolve3 } from "node:path";

// src/actionDir.ts
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
function actionDir(moduleUrl) {
  return dirname(dirname(fileURLToPath(moduleUrl)));
}

// src/errors.ts
var WiregateError = class extends Error {
  constructor(message2) {
    super(message2);
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
  _debug(message2) {
    if (this.options.listeners && this.options.listeners.debug) {
      this.options.listeners.debug(message2);
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
        state.on("debug", (message2) => {
          this._debug(message2);
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
  _debug(message2) {
    this.emit("debug", message2);
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
      const message2 = `The STDIO streams did not close within ${state.delay / 1e3} seconds of the exit event from process '${state.toolPath}'. This may indicate a child process inherited the STDIO streams and has not yet exited.`;
      state._debug(message2);
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
import { join as join7, resolve as resolve2 } from "node:path";

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

// src/render/markdown.ts
var SECRET = /* @__PURE__ */ Symbol("wiregate markdown");
var Md = class {
  #source;
  /** Only this module holds SECRET: nothing else can make an Md. */
  constructor(secret, source) {
    if (secret !== SECRET) throw new Error("an Md is made by render/markdown.ts only");
    this.#source = source;
  }
  /** source is the markdown, to write out (never to build more markdown from). */
  get source() {
    return this.#source;
  }
  get length() {
    return this.#source.length;
  }
  get empty() {
    return this.#source === "";
  }
};
var of = (source) => new Md(SECRET, source);
var EMPTY = of("");
function md(literals, ...values) {
  if (!Object.isFrozen(literals) || !Array.isArray(literals.raw)) throw new Error("md is a template tag");
  let out = literals[0];
  values.forEach((v, i) => {
    out += v instanceof Md ? v.source : typeof v === "number" ? String(v) : escape(v, opensLine(out));
    out += literals[i + 1];
  });
  return of(out);
}
function opensLine(out) {
  return /^[ \t]*(?:(?:[-*+>]|\d{1,9}[.)])[ \t]+)*$/.test(out.slice(out.lastIndexOf("\n") + 1));
}
function text(s) {
  return of(escape(s, true));
}
function escape(s, lineStart) {
  let out = oneLine(s).replace(/[\\`*[\]~$]/g, "\\$&").replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, "\\_").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/@/g, "\u200B@\u200B").replace(/\b(https?|ftp):\/\//gi, "$1:/\u200B/").replace(/\bwww\./gi, "www\u200B.");
  if (lineStart) out = out.replace(/^[#+=-]/, "\\$&").replace(/^(\d+)([.)])/, "$1\\$2");
  return out;
}
function code(s) {
  const line = unmarked(oneLine(s));
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run2) => run2.length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") || line === "" ? " " : "";
  return of(`${fence}${pad}${line}${pad}${fence}`);
}
function codeBlock(info, body) {
  return of("```" + info + "\n" + unmarked(body.replace(/`/g, "\u02CB")).trimEnd() + "\n```");
}
function unmarked(s) {
  return s.replace(/<!--/g, "<!\u200B--");
}
function numeral(s) {
  if (!/^[-+]?(?:\d[\d,]*(?:\.\d*)?(?:e[-+]?\d+)?|Infinity|NaN)$/.test(s)) throw new Error(`numeral: ${JSON.stringify(s)} is not a number`);
  return of(s);
}
function join6(parts, sep2) {
  return of(
    parts.filter((p) => !p.empty).map((p) => p.source).join(sep2.source)
  );
}
function blocks(...parts) {
  return join6(parts, of("\n\n"));
}
function table(header, rows2) {
  const row = (cells) => `| ${cells.map((c) => c.source.replace(/\|/g, "\\|").replace(/\r?\n/g, " ")).join(" | ")} |`;
  return of([row(header), `|${header.map(() => "---|").join("")}`, ...rows2.map(row)].join("\n"));
}
function details(summary2, body) {
  return md`<details><summary>${summary2}</summary>\n\n${body}\n\n</details>`;
}
function link(label, url) {
  return url && /^https?:\/\/[^\s()<>[\]"'`\\]+$/.test(url) ? of(`[${label.source}](${url})`) : label;
}
function xyChart(c) {
  const num2 = (x) => String(Number.isFinite(x) ? x : 0);
  return of(
    [
      "```mermaid",
      "xychart-beta",
      `    title "${mermaidLabel(c.title)}"`,
      `    x-axis [${c.x.map((l) => `"${mermaidLabel(l)}"`).join(", ")}]`,
      `    y-axis "${mermaidLabel(c.y.title)}" ${num2(c.y.lo)} --> ${num2(c.y.hi)}`,
      ...c.series.map((s) => `    ${s.kind} [${s.values.map(num2).join(", ")}]`),
      "```"
    ].join("\n")
  );
}
function mermaidLabel(s) {
  return oneLine(s).replace(/[^\w .:/+,-]/g, "_");
}
function oneLine(s) {
  return s.replace(/[\r\n\u2028\u2029]+/g, " ");
}

// src/render/budget.ts
var SUMMARY_LIMIT = 1024 * 1024;
var summaryBudget = { limit: SUMMARY_LIMIT, unit: "bytes", whole: md`report.md and report.json` };
function assemble(parts) {
  return blocks(...parts.map((p) => p.md)).source + "\n";
}

// src/jsonShape.ts
var Fields = class _Fields {
  constructor(file, path4, o, read) {
    this.file = file;
    this.path = path4;
    this.o = o;
    this.read = read;
  }
  file;
  path;
  o;
  read;
  /** of reads v as an object. read, when given, collects the path of every
   * field asked for (list items as []), present or not: what a parser
   * reads, so a test can hold it against a report that has every field. */
  static of(file, path4, v, read) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) fail(file, path4, "an object");
    return new _Fields(file, path4, v, read);
  }
  at(key) {
    return this.path ? `${this.path}.${key}` : key;
  }
  /** where names a field for an error line: "report.json: violations[2].kind". */
  where(key) {
    return `${this.file}: ${this.at(key)}`;
  }
  raw(key) {
    this.read?.add(this.at(key).replace(/\[\d+\]/g, "[]"));
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
  optional(key, kind) {
    return this.has(key) ? this.scalar(key, kind) : void 0;
  }
  /** nullable reads a field the contract writes as null when unknown. */
  nullable(key, kind) {
    return this.has(key) ? this.scalar(key, kind) : null;
  }
  scalar(key, kind) {
    const read = {
      string: (k) => this.string(k),
      number: (k) => this.number(k),
      int: (k) => this.int(k),
      bool: (k) => this.bool(k)
    };
    return read[kind](key);
  }
  object(key) {
    return _Fields.of(this.file, this.at(key), this.raw(key), this.read);
  }
  /** list reads an array of items; absent or null is empty (Go writes a nil
   * slice as null). */
  list(key, item) {
    const v = this.raw(key);
    if (v === void 0 || v === null) return [];
    if (!Array.isArray(v)) fail(this.file, this.at(key), "a list");
    return v.map((x, i) => item(_Fields.of(this.file, `${this.at(key)}[${i}]`, x, this.read)));
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
function messageStatus(m) {
  return m.status ?? (m.unchanged_schema ? "unchanged" : "changed");
}
function errorReport(base, head, message2, findings = [], stages = []) {
  const subject = findings.find((f) => f.file)?.file ?? "wiregate";
  return {
    version: REPORT_VERSION,
    result: "fail",
    base,
    head,
    violations: [{ kind: "error", subject, detail: message2, allowed: false }],
    messages: [],
    pipeline: [],
    findings,
    env: {},
    stages,
    errors: [message2]
  };
}
function parseReport(text2, source = "report.json", read) {
  let raw;
  try {
    raw = JSON.parse(text2);
  } catch (err) {
    const at = /position (\d+)/.exec(err instanceof Error ? err.message : "")?.[1];
    throw new WiregateError(`${source} is not valid JSON${at ? ` (at byte ${at})` : ""}`);
  }
  const r = Fields.of(source, "", raw, read);
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
    messages: r.list("messages", message),
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
    cpu_cost: r.has("cpu_cost") ? cpuCost(r.object("cpu_cost")) : void 0,
    change: r.has("change") ? change(r.object("change")) : void 0
  });
}
function message(m) {
  return defined({
    name: m.string("name"),
    formats: m.list("formats", format),
    unchanged_schema: m.optional("unchanged_schema", "bool"),
    status: m.has("status") ? word(m, "status") : void 0,
    records: m.has("records") ? records(m.object("records")) : void 0
  });
}
function records(f) {
  const note = (n) => defined({
    field: n.string("field"),
    number: n.string("number"),
    from: n.optional("from", "string"),
    to: n.optional("to", "string"),
    protobuf_bytes: n.optional("protobuf_bytes", "number")
  });
  return {
    source: f.string("source"),
    new_fields: f.list("new_fields", note),
    regenerated: f.list("regenerated", note),
    new_oneof_members: f.list("new_oneof_members", note),
    renamed: f.list("renamed", note),
    removed: f.list("removed", note)
  };
}
function change(f) {
  return defined({
    measure: word(f, "measure"),
    changed: f.strings("changed"),
    new: f.strings("new"),
    removed: f.strings("removed"),
    unchanged: f.strings("unchanged"),
    no_schema_changed: f.optional("no_schema_changed", "bool")
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
    cpu: f.has("cpu") ? ((c) => defined({ uncounted: c.strings("uncounted"), one_rotation: c.strings("one_rotation"), note: c.optional("note", "string") }))(f.object("cpu")) : void 0,
    exact: f.has("exact") ? ((e) => defined({ unmeasured: e.strings("unmeasured"), note: e.optional("note", "string") }))(f.object("exact")) : void 0
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
    carried: f.strings("carried"),
    unreached: f.strings("unreached"),
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
function word(f, key) {
  const k = f.string(key);
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(k)) throw new WiregateError(`${f.where(key)} is not a ${key} (a lower-case word)`);
  return k;
}
function violation(f) {
  return defined({
    kind: word(f, "kind"),
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
    kind: word(f, "kind"),
    file: f.string("file"),
    line: f.optional("line", "int"),
    column: f.optional("column", "int"),
    rule: f.optional("rule", "string"),
    message: f.string("message"),
    against: f.optional("against", "string"),
    existing: f.optional("existing", "bool")
  });
}
function summary(f, key) {
  if (!f.has(key)) return null;
  const s = f.object(key);
  if (!s.has("center")) return null;
  return defined({ center: s.number("center"), lo: s.optional("lo", "number"), hi: s.optional("hi", "number"), n: s.int("n") });
}
function size(s) {
  return defined({
    base: s.number("base"),
    head: s.number("head"),
    delta_pct: s.nullable("delta_pct", "number"),
    vs_json: s.optional("vs_json", "number"),
    new_content: s.optional("new_content", "number")
  });
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
    runner: f.optional("runner", "string"),
    peak_rss_bytes: f.optional("peak_rss_bytes", "int")
  });
}

// src/render/numbers.ts
function pct(x, signed = true) {
  if (x === null || x === void 0 || !Number.isFinite(x)) return md`n/a`;
  const s = numeral(Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1));
  return signed && x >= 0 ? md`+${s}%` : md`${s}%`;
}
function pValue(p) {
  if (p === null || p === void 0 || !Number.isFinite(p)) return void 0;
  return p < 1e-3 ? md`p&lt;0.001` : md`p=${numeral(p.toFixed(3))}`;
}
function seconds(s) {
  const abs = Math.abs(s);
  if (abs >= 1) return md`${sig(s)} s`;
  if (abs >= 1e-3) return md`${sig(s * 1e3)} ms`;
  if (abs >= 1e-6) return md`${sig(s * 1e6)} µs`;
  return md`${sig(s * 1e9)} ns`;
}
function instructions(n) {
  return Math.abs(n) >= 1e4 ? md`${sig(n / 1e3)}k` : integer(n);
}
function bytes(b) {
  return numeral(b.toFixed(1));
}
function signedBytes(b) {
  return b >= 0 ? md`+${bytes(b)}` : bytes(b);
}
function rate(r) {
  const abs = Math.abs(r);
  if (abs >= 1e6) return md`${sig(r / 1e6)}M`;
  if (abs >= 1e3) return md`${sig(r / 1e3)}k`;
  return sig(r);
}
function sig(x) {
  const abs = Math.abs(x);
  return numeral(abs >= 100 ? x.toFixed(0) : abs >= 10 ? x.toFixed(1) : x.toFixed(2));
}
function measure(x, unit) {
  switch (unit) {
    case "sec/op":
      return seconds(x);
    case "B/msg":
      return md`${bytes(x)} B/msg`;
    case "records/s":
      return md`${rate(x)} records/s`;
    case "instr/op":
      return md`${instructions(x)} instr/op`;
    default:
      return md`${sig(x)} ${unit}`;
  }
}
function integer(n) {
  return numeral(
    Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  );
}
function mebibytes(b) {
  const [v, unit] = b >= 2 ** 30 ? [b / 2 ** 30, md`GiB`] : [b / 2 ** 20, md`MiB`];
  return md`${Number.isInteger(v) ? v : sig(v)} ${unit}`;
}
function wallSeconds(s) {
  return md`${numeral(s.toFixed(1))} s`;
}
function shortSha(sha) {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha;
}
function count(n, one, many) {
  return md`${integer(n)} ${n === 1 ? one : many}`;
}

// src/render/details.ts
function folded(line, names2) {
  if (names2.length === 0) return { md: EMPTY };
  return {
    md: details(line, codeBlock("text", names2.join("\n"))),
    cut: "names",
    compact: { md: line }
  };
}
function benchstatDetails(report) {
  if (!report.benchstat) return { md: EMPTY };
  return { md: details(md`benchstat (base vs head)`, codeBlock("text", report.benchstat)), cut: "benchstat" };
}
function noiseDetails(report) {
  const rows2 = [];
  for (const m of report.messages) {
    for (const f of m.formats) {
      for (const metric2 of f.metrics) {
        if (metric2.noise_floor_pct !== void 0) {
          rows2.push([code(`${m.name}/${f.format}/${metric2.name}`), text(metric2.unit), md`±${pct(metric2.noise_floor_pct, false)}`]);
        }
      }
    }
  }
  for (const p of report.pipeline) {
    if (p.noise_floor_pct !== void 0) rows2.push([code(`${p.message}/${p.format}/pipeline`), md`records/s`, md`±${pct(p.noise_floor_pct, false)}`]);
  }
  if (rows2.length === 0) return { md: EMPTY };
  return { md: details(md`noise floor`, table([md`metric`, md`unit`, md`noise floor`], rows2)), cut: "noise" };
}
function environmentDetails(report) {
  const e = report.env;
  const broker = e.broker ? md`${e.broker}${e.broker_reason ? md` (${e.broker_reason})` : EMPTY}` : void 0;
  const rss = (b) => b !== void 0 ? mebibytes(b) : void 0;
  const items = [
    [md`runner`, e.runner],
    [md`Go`, e.go_version],
    [md`OS`, e.os],
    [md`CPU`, e.cpu && e.cores ? md`${e.cpu} × ${e.cores} cores` : e.cpu],
    [md`rounds per side`, e.unchanged_rounds ? md`${e.count !== void 0 ? md`${e.count} ` : EMPTY}(unchanged schemas: ${e.unchanged_rounds})` : e.count],
    [md`alpha`, e.alpha],
    [md`broker`, broker],
    [md`pipeline backlog`, backlogLimits(e)],
    [md`consumer cap`, e.consumer_cap],
    [md`peak RSS (the gate and any one child)`, rss(e.peak_rss_bytes)],
    [md`broker peak RSS`, rss(e.broker_peak_rss_bytes)],
    [md`consumer peak RSS`, rss(e.consumer_peak_rss_bytes)],
    [md`instruction counter`, counter(report)]
  ];
  const rows2 = items.filter(([, v]) => v !== void 0 && v !== "").map(([k, v]) => [k, md`${v}`]);
  if (rows2.length === 0) return { md: EMPTY };
  return { md: details(md`environment`, table([EMPTY, EMPTY], rows2)), cut: "environment" };
}
function backlogLimits(e) {
  if (e.pipeline_n === void 0) return void 0;
  const records2 = md`≤ ${integer(e.pipeline_n)} records`;
  return e.pipeline_bytes === void 0 ? records2 : md`${records2} and ≤ ${mebibytes(e.pipeline_bytes)} each`;
}
function counter(report) {
  const c = report.cpu_cost;
  if (!c?.tool) return void 0;
  return c.installed ? md`${c.tool}, ${c.installed}` : text(c.tool);
}
function stagesDetails(report) {
  if (report.stages.length === 0) return { md: EMPTY };
  const rows2 = report.stages.map((s) => [text(s.name), wallSeconds(s.seconds), s.error ? md`❌ ${s.error}` : text(s.note ?? "")]);
  rows2.push([md`**total**`, wallSeconds(report.stages.reduce((sum, s) => sum + s.seconds, 0)), EMPTY]);
  return { md: details(md`stage timings`, table([md`stage`, md`time`, EMPTY], rows2)), cut: "stages" };
}
function ignoredDetails(report) {
  const ignored = report.ignored ?? [];
  if (ignored.length === 0) return { md: EMPTY };
  const rows2 = ignored.map((i) => [code(i.subject), text(i.reason)]);
  return { md: details(md`ignored by wiregate.yaml (${ignored.length})`, table([md`subject`, md`reason`], rows2)), cut: "ignored" };
}
function errorsDetails(report) {
  const errors = report.errors ?? [];
  if (errors.length === 0) return { md: EMPTY };
  return {
    md: details(
      md`errors`,
      join6(
        errors.map((e) => md`- ${e}`),
        md`\n`
      )
    )
  };
}

// src/render/history.ts
function historyCharts(report, name) {
  const h = report.history;
  const m = h?.messages.find((x) => x.name === name);
  if (!h || !m) return EMPTY;
  const units = [...new Set(m.series.map((s) => s.unit))];
  return blocks(...units.map((unit) => chart(h, m, m.series.filter((s) => s.unit === unit), unit)));
}
function chart(h, m, series, unit) {
  const keep = m.commits.map((_, i) => i).filter((i) => series.every((s) => typeof s.values[i] === "number"));
  if (keep.length < 2) return EMPTY;
  const lines = series.map((s) => keep.map((i) => round(s.values[i])));
  const all = lines.flat();
  const [lo, hi] = yRange(Math.min(...all), Math.max(...all));
  const main = keep.filter((i) => m.commits[i].head !== true);
  const branch = m.commits[main.at(-1)].ref || h.branch;
  const legend = join6(
    series.map((s, j) => md`${j + 1}. ${s.format} ${s.metric}: ${measure(lines[j][0], unit)} → ${measure(lines[j].at(-1), unit)}`),
    md` · `
  );
  return md`${xyChart({
    title: `${m.name} ${unit}: last ${main.length} commits of ${branch}, then this PR`,
    x: keep.map((i) => m.commits[i].head === true ? "PR" : shortSha(m.commits[i].sha)),
    y: { title: unit, lo, hi },
    series: lines.map((values) => ({ kind: "line", values }))
  })}\n<sub>Lines in order — ${legend}. The last point is this PR.</sub>`;
}
function historyNote(report) {
  const h = report.history;
  if (!h) return [];
  const carried = h.carried ?? [];
  const unreached = h.unreached ?? [];
  const note = h.note ? md` ${h.note}.` : EMPTY;
  let line = EMPTY;
  if (h.recorded) {
    const tries = h.attempts && h.attempts > 1 ? md` (${h.attempts} attempts: other runs pushed first)` : EMPTY;
    line = md`<sub>History: recorded ${shortSha(h.recorded)} on ${code(h.branch)}${tries}.${note}</sub>`;
  } else if (h.note) {
    line = md`<sub>History (${code(h.branch)}):${note}</sub>`;
  }
  return [
    { md: line },
    folded(md`History: ${count(carried.length, "message", "messages")} carried forward from the last point (same schema, wiregate and Go: not re-measured)`, carried),
    folded(md`History: ${count(unreached.length, "message", "messages")} neither carried nor measured within the time budget`, unreached)
  ];
}
function yRange(min, max) {
  const pad = max > min ? (max - min) * 0.2 : Math.max(1, Math.abs(max) * 0.05);
  const lo = Math.floor(min - pad);
  return [min >= 0 ? Math.max(0, lo) : lo, Math.ceil(max + pad)];
}
function round(x) {
  return Math.round(x * 10) / 10;
}

// src/render/records.ts
function recordsNotes(message2) {
  const r = message2.records;
  if (!r) return [];
  return [
    newContent(message2),
    oneofMembers(r.new_oneof_members),
    r.renamed.length > 0 ? md`<sub>Renamed, same number, no value changed: ${names(r.renamed, renamed)}.</sub>` : EMPTY,
    r.removed.length > 0 ? md`<sub>Removed on head: ${names(r.removed, (f) => code(f.field))}.</sub>` : EMPTY,
    md`<sub>Records: ${r.source}.</sub>`
  ];
}
function newContent(message2) {
  const r = message2.records;
  const several = r.new_fields.length + r.regenerated.length > 1;
  const own = (f) => several && f.protobuf_bytes !== void 0 ? signedBytes(f.protobuf_bytes) : EMPTY;
  const fields = [
    ...r.new_fields.map((f) => md`new field ${code(f.field)}${parenthesized([own(f)])}`),
    ...r.regenerated.map((f) => md`regenerated field ${code(f.field)}${parenthesized([kinds(f), own(f)])}`)
  ];
  if (fields.length === 0) return EMPTY;
  const what = join6(fields, md`, `);
  const sized = message2.formats.filter((f) => f.size?.new_content !== void 0);
  if (sized.length === 0) return md`📦 Head's records add ${what}.`;
  const lead = sized.find((f) => f.format === "protobuf") ?? sized[0];
  const others = sized.filter((f) => f !== lead).map((f) => md`${f.format} ${signedBytes(f.size.new_content)}`);
  return md`📦 ${signedBytes(lead.size.new_content)} B/msg from ${what} (${join6([md`${lead.format}`, join6(others, md`, `)], md`; `)}).`;
}
function parenthesized(parts) {
  const inside = join6(parts, md`, `);
  return inside.empty ? EMPTY : md` (${inside})`;
}
function kinds(f) {
  return f.from && f.to ? md`${f.from} → ${f.to}` : EMPTY;
}
function oneofMembers(members) {
  if (members.length === 0) return EMPTY;
  const each = members.map((f) => f.protobuf_bytes !== void 0 ? md`${code(f.field)} (one would cost ${bytes(f.protobuf_bytes)} B in protobuf)` : code(f.field));
  const s = members.length === 1 ? md`` : md`s`;
  return md`➕ New oneof member${s} ${join6(each, md`, `)}: no record holds ${members.length === 1 ? md`it` : md`them`} (each keeps the member it had), so no figure above counts ${members.length === 1 ? md`its` : md`their`} content (a format that marks an empty member, as Avro's null branch does, still pays that mark).`;
}
function renamed(f) {
  return f.from && f.to ? md`${code(f.from)} → ${code(f.to)}` : code(f.field);
}
function names(notes, one) {
  return join6(notes.map(one), md`, `);
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
var MEASURED = /* @__PURE__ */ new Set(["size", "cpu", "time", "throughput"]);
function verdictLine(report) {
  const blocking = report.violations.filter((v) => !v.allowed);
  const allowed = report.violations.filter((v) => v.allowed);
  const error = blocking.find((v) => v.kind === "error");
  if (error) return md`## ⛔ wiregate could not run: ${error.detail}`;
  if (report.result === "pass") {
    if (allowed.length > 0) return md`## ✅ wiregate: pass — ${reasons(allowed)} allowed by label`;
    return report.change?.no_schema_changed ? md`## ✅ wiregate: pass — no schema changed` : md`## ✅ wiregate: pass — no schema or wire-cost regressions`;
  }
  const why = reasons(blocking);
  const label = allowed.length > 0 ? md`; allowed by label: ${reasons(allowed)}` : EMPTY;
  return md`## ❌ wiregate: fail — ${why.empty ? md`see below` : why}${label}`;
}
function ofMessage(report, name) {
  return report.violations.filter((v) => v.subject === name || v.subject.startsWith(`${name}/`));
}
function messageVerdict(violations, name) {
  const blocking = violations.filter((v) => !v.allowed);
  const allowed = violations.filter((v) => v.allowed);
  const within = (v) => v.subject.startsWith(`${name}/`) ? v.subject.slice(name.length + 1) : v.subject;
  const parts = [];
  if (blocking.length > 0) parts.push(md`❌ ${reasons(blocking, within)}`);
  if (allowed.length > 0) parts.push(md`⚠️ allowed by label: ${reasons(allowed, within)}`);
  if (parts.length === 0) parts.push(md`✅ within every threshold`);
  return join6(parts, md` · `);
}
function reasons(violations, subject = (v) => v.subject) {
  const parts = [];
  const byKind = /* @__PURE__ */ new Map();
  for (const v of violations) {
    const k = v.against ? `${v.kind} ${v.against}` : v.kind;
    byKind.set(k, [...byKind.get(k) ?? [], v]);
  }
  for (const vs of byKind.values()) {
    const kind = vs[0].kind;
    const release = vs[0].against ? md` vs release ${code(vs[0].against)}` : EMPTY;
    if (MEASURED.has(kind)) {
      parts.push(...vs.slice(0, 2).map((v) => md`${kind} ${pct(v.delta_pct)} on ${subject(v)}${limit(v)}`));
      const more = vs.length - 2;
      if (more > 0) parts.push(md`${more} more ${KIND_WORDS[kind][more === 1 ? 0 : 1]}`);
    } else {
      const [one, many] = Object.hasOwn(KIND_WORDS, kind) ? KIND_WORDS[kind].map((w) => text(w)) : [code(kind), code(kind)];
      parts.push(md`${vs.length} ${vs.length === 1 ? one : many}${release}`);
    }
  }
  return join6(parts, md`, `);
}
function limit(v) {
  return v.threshold_pct === void 0 ? EMPTY : md` (limit ${pct(v.threshold_pct, false)})`;
}

// src/render/messages.ts
var INSTR = "instr/op";
function messageParts(report, message2) {
  const status = messageStatus(message2);
  const isNew = status === "new";
  const violations = ofMessage(report, message2.name);
  const heading = isNew ? md`### ${code(message2.name)} · new on head` : status === "changed" ? md`### ${code(message2.name)}` : md`### ${code(message2.name)} · ${status}`;
  const verdict = isNew ? join6([md`🆕 New on head: nothing to compare, head's figures only.`, violations.length > 0 ? messageVerdict(violations, message2.name) : EMPTY], md` `) : messageVerdict(violations, message2.name);
  const head = join6([heading, verdict, ...recordsNotes(message2)], md`\n\n`);
  return [
    { md: head },
    { md: blocks(formatsTable(report, message2), backlogNote(report, message2.name)), cut: "message tables" },
    { md: isNew ? EMPTY : bytesChart(message2), cut: "bytes charts" },
    { md: isNew ? EMPTY : historyCharts(report, message2.name), cut: "history charts" }
  ];
}
function unmeasuredPart(report, name, isNew) {
  const cutByBudget = (report.plan?.exact?.unmeasured ?? []).includes(name);
  const skipped = report.skipped?.find((s) => s.message === name);
  const why = cutByBudget ? md`⏱ Not measured: the time budget ran out before it (see what the budget cut).` : skipped ? md`Not measured: ${skipped.reason}.` : md`Not measured in this run (see errors and stage timings).`;
  return { md: md`### ${code(name)}${isNew ? md` · new on head` : EMPTY}\n\n${why}` };
}
var CELLS_LEGEND = md`<sub>Cells: base → head (delta, p). "~" means the change is not significant at alpha (CPU: within what identical counts move). CPU is instructions per operation counted under Valgrind: exact, the same on any runner. Chart bars: base first, head second. A new message shows head's figures only.</sub>`;
function formatsTable(report, message2) {
  const side = messageStatus(message2) === "new" ? headOnly : bothSides;
  const pipeline2 = report.pipeline.filter((p) => p.message === message2.name);
  const counted = message2.formats.some((f) => f.metrics.some((m) => m.unit === INSTR));
  const header = [md`format`, md`bytes/msg`, md`encode`, md`decode`, ...counted ? [md`CPU instr/op (encode, decode)`] : [], md`pipeline records/s`];
  const rows2 = message2.formats.map((f) => [
    md`${f.format}${f.aliasing ? md` (aliasing)` : EMPTY}`,
    sizeCell(f, side),
    timeCell(metric(f, "encode"), side),
    timeCell(metric(f, "decode"), side),
    ...counted ? [cpuCell(f, side)] : [],
    pipelineCell(pipeline2.find((x) => x.format === f.format), side)
  ]);
  return table(header, rows2);
}
function backlogNote(report, name) {
  const b = report.pipeline.find((p) => p.message === name && p.backlog)?.backlog;
  if (!b || b.budget_bytes === void 0) return EMPTY;
  const asked = report.env.pipeline_n !== void 0 ? md`, not the ${integer(report.env.pipeline_n)} asked for` : EMPTY;
  return md`<sub>Pipeline backlog: N = ${integer(b.n)} records${asked} (byte budget ${mebibytes(b.budget_bytes)} / ${integer(b.mean_bytes)} B per ${b.format} record).</sub>`;
}
function metric(f, name, unit = "sec/op") {
  return f.metrics.find((m) => m.name === name && m.unit === unit);
}
function sizeCell(f, side) {
  if (!f.size) return md`—`;
  const { base, head, delta_pct } = f.size;
  if (side === headOnly) return bytes(head);
  if (base === head) return md`${bytes(head)} (=)`;
  return md`${bytes(base)} → ${bytes(head)} (${pct(delta_pct)})`;
}
function change2(deltaPct, p, significant) {
  const d = significant ? pct(deltaPct) : md`~`;
  const pv = pValue(p);
  return pv ? md`(${d}, ${pv})` : md`(${d})`;
}
var bothSides = (base, head, format2, delta) => {
  if (head === void 0) return md`—`;
  if (base === void 0) return md`— → ${format2(head)}`;
  return md`${format2(base)} → ${format2(head)} ${delta()}`;
};
var headOnly = (_base, head, format2) => head === void 0 ? md`—` : format2(head);
function timeCell(m, side) {
  if (!m) return md`—`;
  return side(m.base?.center, m.head?.center, seconds, () => change2(m.delta_pct, m.p, m.significant));
}
function cpuCell(f, side) {
  const parts = ["encode", "decode"].map((op) => {
    const m = metric(f, op, INSTR);
    if (!m) return md`—`;
    const d = () => m.base.center === m.head.center ? md`(=)` : md`(${m.significant ? pct(m.delta_pct) : md`~`})`;
    return side(m.base?.center, m.head?.center, instructions, d);
  });
  return parts.every((p) => p.source === "\u2014") ? md`—` : join6(parts, md`<br>`);
}
function pipelineCell(p, side) {
  if (!p) return md`—`;
  const significant = p.significant ?? (p.p !== null && p.p !== void 0);
  return side(p.base?.center, p.head?.center, rate, () => change2(p.delta_pct, p.p, significant));
}
function bytesChart(message2) {
  const sized = message2.formats.filter((f) => f.size);
  if (!sized.some((f) => f.size.base !== f.size.head)) return EMPTY;
  const base = sized.map((f) => num(f.size.base));
  const head = sized.map((f) => num(f.size.head));
  return xyChart({
    title: `bytes/msg, base then head: ${message2.name}`,
    x: sized.map((f) => f.format),
    y: { title: "bytes/msg", lo: 0, hi: Math.ceil(Math.max(...base, ...head) * 1.1) },
    series: [
      { kind: "bar", values: base },
      { kind: "bar", values: head }
    ]
  });
}
function num(x) {
  return Math.round(x * 10) / 10;
}

// src/render/change.ts
var CHECK_STAGES = [
  ["buf lint", md`lint`],
  ["buf breaking", md`breaking`],
  ["avro-compatibility", md`Avro compatibility`]
];
function noSchemaChanged(report) {
  if (!report.change?.no_schema_changed) return EMPTY;
  const ran = CHECK_STAGES.filter(([stage]) => report.stages.some((s) => s.name === stage && !s.error)).map(([, name]) => name);
  const checks = ran.length > 0 ? md`ran ${join6(ran, md`, `)}` : md`ran no schema check`;
  return md`**No schema changed**: ${checks}; nothing to measure (no message changed, was added or was removed).`;
}
function changedParts(report) {
  const measured = new Map(report.messages.map((m) => [m.name, m]));
  const byStatus = (want) => report.messages.filter(want);
  const changed = byStatus((m) => !["new", "unchanged"].includes(messageStatus(m)));
  const added = byStatus((m) => messageStatus(m) === "new");
  const fails = (m) => ofMessage(report, m.name).some((v) => !v.allowed) ? 0 : 1;
  changed.sort((a, b) => fails(a) - fails(b));
  const missing = (names2, isNew) => (names2 ?? []).filter((n) => !measured.has(n)).map((n) => unmeasuredPart(report, n, isNew));
  const parts = [
    ...changed.flatMap((m) => messageParts(report, m)),
    ...missing(report.change?.changed, false),
    ...added.flatMap((m) => messageParts(report, m)),
    ...missing(report.change?.new, true)
  ];
  if (changed.length + added.length > 0) parts.push({ md: CELLS_LEGEND, cut: "message tables" });
  return parts;
}
function unchangedParts(report) {
  const measured = new Set(report.messages.map((m) => m.name));
  const notMeasured = (report.change?.unchanged ?? []).filter((n) => !measured.has(n));
  const unchanged = report.messages.filter((m) => messageStatus(m) === "unchanged");
  const removed = report.change?.removed ?? [];
  const parts = [folded(md`${count(notMeasured.length, "message", "messages")} unchanged (schema identical): not re-measured`, notMeasured)];
  if (unchanged.length > 0) {
    const all = report.change?.measure === "all" ? md` (measure: all)` : EMPTY;
    const line = md`${count(unchanged.length, "message", "messages")} unchanged (schema identical): measured${all}; their exact figures cannot differ and their timings cannot fail the gate`;
    const tables = unchanged.map((m) => md`#### ${code(m.name)}\n\n${formatsTable(report, m)}`);
    parts.push({
      md: details(line, blocks(...tables)),
      cut: "unchanged tables",
      compact: folded(
        line,
        unchanged.map((m) => m.name)
      )
    });
  }
  parts.push(folded(md`${count(removed.length, "message", "messages")} removed (only the base declares ${removed.length === 1 ? md`it` : md`them`})`, removed));
  return parts;
}

// src/render/checks.ts
var CHECKS = [
  { kind: "lint", title: md`buf lint`, stage: "buf lint" },
  { kind: "breaking", title: md`buf breaking`, stage: "buf breaking" },
  { kind: "avro", title: md`Avro compatibility`, stage: "avro-compatibility" }
];
var RELEASE_STAGES = {
  breaking: "buf breaking (release)",
  avro: "avro-compatibility (release)"
};
var SHOWN_PER_CHECK = 5;
function checksTable(report) {
  const rows2 = [];
  const release = report.breaking_against;
  for (const { kind, title, stage } of CHECKS) {
    if (!release || kind === "lint") {
      rows2.push(checkRow(report, kind, title, stage, void 0));
      continue;
    }
    rows2.push(checkRow(report, kind, md`${title} vs the base`, stage, void 0));
    const releaseTitle = md`${title} vs release ${code(release.ref)}`;
    if (release.same_as_base) rows2.push([releaseTitle, md`= the base (same commit)`, EMPTY]);
    else rows2.push(checkRow(report, kind, releaseTitle, RELEASE_STAGES[kind], release.ref));
  }
  return table([md`check`, md`result`, md`findings`], rows2);
}
function checkRow(report, kind, title, stage, against2) {
  const findings = report.findings.filter((f) => f.kind === kind && f.against === against2 && !f.existing);
  const violations = report.violations.filter((v) => v.kind === kind && v.against === against2);
  const allowed = violations.length > 0 && violations.every((v) => v.allowed);
  const ran = report.stages.find((s) => s.name === stage);
  const n = Math.max(findings.length, violations.length);
  let status;
  if (ran === void 0) status = md`— not run`;
  else if (ran.error) status = md`⛔ could not run`;
  else if (n === 0) status = md`✅ ok`;
  else if (allowed) status = md`⚠️ ${n} (allowed)`;
  else if (violations.length > 0) status = md`❌ ${n}`;
  else status = md`ℹ️ ${findings.length} (not gating)`;
  const shown = findings.slice(0, SHOWN_PER_CHECK).map(findingText);
  if (findings.length > SHOWN_PER_CHECK) shown.push(md`… ${findings.length - SHOWN_PER_CHECK} more`);
  return [title, status, join6(shown, md`<br>`)];
}
function existingDebt(report) {
  const debt = report.findings.filter((f) => f.existing);
  if (debt.length === 0) return { md: EMPTY };
  const line = md`${count(debt.length, "lint finding", "lint findings")} the base already has (existing debt)`;
  return {
    md: details(
      line,
      join6(
        debt.map((f) => md`- ${findingText(f)}`),
        md`\n`
      )
    ),
    cut: "names",
    compact: { md: line }
  };
}
function findingText(f) {
  const where2 = [f.file, f.line, f.column].filter((x) => x !== void 0 && x !== "" && x !== 0).join(":");
  const rule = f.rule ? md` ${f.rule}` : EMPTY;
  return md`${code(where2)}${rule}: ${f.message}`;
}

// src/render/plan.ts
function planParts(report) {
  const plan2 = report.plan;
  if (!plan2) return [];
  const notes = [
    [md`Exact stage`, plan2.exact?.note],
    [md`Instruction counts`, plan2.cpu?.note],
    [md`Bench rounds`, plan2.bench?.note],
    [md`Pipeline`, plan2.pipeline?.note]
  ];
  const lines = notes.filter(([, n]) => n).map(([stage, n]) => md`> ⏱ ${stage}, ${n}`);
  const messages = (n) => count(n, "message", "messages");
  const list = (names2, line) => folded(line(names2?.length ?? 0), names2 ?? []);
  return [
    { md: join6(lines, md`\n>\n`) },
    list(plan2.exact?.unmeasured, (n) => md`⏱ ${messages(n)} not measured at all (no correctness check, no sizes): the time budget ran out`),
    list(plan2.cpu?.uncounted, (n) => md`⏱ ${messages(n)} whose instructions were not counted`),
    list(plan2.cpu?.one_rotation, (n) => md`⏱ ${messages(n)} whose instructions were counted over one rotation of the record pool instead of four (exact all the same)`),
    list(plan2.bench?.untimed, (n) => md`⏱ ${messages(n)} not timed`),
    list(plan2.pipeline?.untimed, (n) => md`⏱ ${count(n, "pipeline row", "pipeline rows")} not timed`)
  ].filter((p) => !p.md.empty);
}

// src/render/skipped.ts
var LISTED = 5;
function skippedList(report) {
  const skipped = report.skipped ?? [];
  if (skipped.length === 0) return { md: EMPTY };
  const lines = join6(
    skipped.map((s) => {
      const side = s.side === "base" ? md` (the base only: head is measured, with nothing to compare against)` : EMPTY;
      return md`- ${code(s.message)} in ${code(s.file)}${side}: ${s.reason}`;
    }),
    md`\n`
  );
  const title = md`Not measured (${skipped.length})`;
  if (skipped.length <= LISTED) return { md: md`#### ${title}\n${lines}` };
  const line = md`${skipped.length} messages wiregate cannot measure`;
  return { md: details(line, lines), cut: "names", compact: { md: line } };
}

// src/render/violations.ts
function violationsTable(report) {
  const unmeasured = report.violations.filter((v) => !MEASURED.has(v.kind));
  const all = { md: rows(report, report.violations), cut: "violation rows", compact: { md: rows(report, unmeasured) } };
  return unmeasured.length === report.violations.length ? { md: all.md } : all;
}
function rows(report, violations) {
  if (violations.length === 0) return EMPTY;
  const rows2 = violations.map((v) => {
    const numbers = [
      v.unit && v.base !== void 0 && v.head !== void 0 ? md`${measure(v.base, v.unit)} → ${measure(v.head, v.unit)}` : EMPTY,
      v.delta_pct !== void 0 ? pct(v.delta_pct) : EMPTY,
      v.threshold_pct !== void 0 ? md`limit ${pct(v.threshold_pct, false)}` : EMPTY,
      pValue(v.p) ?? EMPTY,
      v.base_n && v.head_n ? md`n=${v.base_n}+${v.head_n}` : EMPTY
    ];
    const figures = join6(numbers, md`, `);
    const detail = figures.empty ? md`${v.detail}` : md`${v.detail} (${figures})`;
    return [v.allowed ? md`⚠️ allowed` : md`❌`, kindCell(v, report), code(v.subject), detail];
  });
  return table([EMPTY, md`kind`, md`subject`, md`detail`], rows2);
}
function kindCell(v, report) {
  if (v.against) return md`${v.kind}: breaks release ${code(v.against)}`;
  if (report.breaking_against && (v.kind === "breaking" || v.kind === "avro")) return md`${v.kind}: breaks the base`;
  return md`${v.kind}`;
}

// src/render/report.ts
function reportParts(report, ctx = {}) {
  const revs = md`base ${revision(report.base, "base")} → head ${revision(report.head, "head")}`;
  return [
    { md: verdictLine(report) },
    { md: ctx.runUrl ? md`${revs} · ${link(md`run`, ctx.runUrl)}` : revs },
    {
      md: join6(
        (report.warnings ?? []).map((w) => md`> ⚠️ ${w}`),
        md`\n>\n`
      )
    },
    { md: noSchemaChanged(report) },
    ...planParts(report),
    { md: report.cpu_cost?.unavailable ? md`> ℹ️ Instructions not counted: ${report.cpu_cost.unavailable}.` : EMPTY },
    violationsTable(report),
    { md: md`#### Schema checks\n\n${checksTable(report)}` },
    existingDebt(report),
    ...changedParts(report),
    ...unchangedParts(report),
    skippedList(report),
    ...historyNote(report),
    benchstatDetails(report),
    noiseDetails(report),
    ignoredDetails(report),
    environmentDetails(report),
    stagesDetails(report),
    errorsDetails(report)
  ].filter((p) => !p.md.empty);
}
function revision(r, side) {
  const sha = shortSha(r.sha);
  if (r.ref && sha && r.ref !== r.sha && r.ref !== sha) return md`${code(r.ref)} @ ${sha}`;
  if (r.ref && r.ref !== r.sha) return code(r.ref);
  if (sha) return code(sha);
  return side === "head" ? md`the working tree` : md`not resolved (the run stopped before choosing it)`;
}
function renderReport(report, ctx = {}) {
  return assemble(reportParts(report, ctx));
}

// src/run.ts
async function runGate(plan2, env2, render = {}) {
  const outDir = resolve2(env2.outDir);
  await mkdir3(outDir, { recursive: true });
  await mkdir3(env2.tmpDir, { recursive: true });
  const reportJson = join7(outDir, "report.json");
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
    const dir = cached?.layout.binDir ?? binDir(env2.toolCache, await goVersion(), await hashTree(join7(env2.actionDir, "harness"), harnessFiles));
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
    const message2 = errorMessage(err);
    env2.log.error(message2, { title: "wiregate could not run" });
    const stopped = errorReport({ ref: plan2.baseLabel, sha: plan2.baseRef }, { ref: plan2.headLabel ?? "", sha: plan2.headSha ?? "" }, message2);
    return finish(stopped, EXIT_ERROR, outDir, render, true);
  } finally {
    if (env2.cache && cached) env2.log.info(`wiregate cache: ${await saveCache(env2.cache.backend, cached.layout, cached.keys, cached.matched, env2.log)}`);
  }
  return finish(report, exitCode, outDir, render, false);
}
async function restore(backend, root, actionDir2, log) {
  const harnessHash = await hashTree(join7(actionDir2, "harness"), harnessFiles);
  const go = await goVersion();
  const keys = cacheKeys(`${process.platform}-${process.arch}`, go, harnessHash, await hashTree(process.cwd(), schemaFiles));
  const layout = cacheLayout(root, go, harnessHash);
  const { stage, matched } = await restoreCache(backend, layout, keys, log);
  return { layout, keys, matched, stage };
}
async function finish(report, exitCode, outDir, render, writeJson) {
  const reportJson = join7(outDir, "report.json");
  if (writeJson) await writeFile(reportJson, JSON.stringify(report, null, 2) + "\n");
  const markdown = renderReport(report, render);
  const reportMarkdown = join7(outDir, "report.md");
  await writeFile(reportMarkdown, markdown);
  return { report, markdown, exitCode, reportJson, reportMarkdown };
}
function gateArgv(plan2, env2, buf, outDir) {
  const argv = [
    "gate",
    `--base-ref=${plan2.baseRef}`,
    `--base-label=${plan2.baseLabel}`,
    `--labels=${JSON.stringify(plan2.labels)}`,
    `--harness-dir=${join7(env2.actionDir, "harness")}`,
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
    const tmp = join8(tmpdir(), "wiregate-local");
    await mkdir4(tmp, { recursive: true });
    const { bin } = await buildHarness(actionDir(import.meta.url), await mkdtemp(join8(tmp, "wiregate-bin-")));
    return runWiregate(bin, ["gate", "--help"], process.cwd());
  }
  const base = ours.base || "HEAD";
  const outDir = resolve3(ours.out || ".wiregate");
  const result = await runGate(
    { baseRef: base, baseLabel: base, labels: [] },
    {
      actionDir: actionDir(import.meta.url),
      tmpDir: join8(tmpdir(), "wiregate-local"),
      toolCache: join8(tmpdir(), "wiregate-tools"),
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
