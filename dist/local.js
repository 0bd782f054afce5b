import { createRequire as __wiregateCreateRequire } from 'node:module'; const require = __wiregateCreateRequire(import.meta.url);

// src/local.ts
import { mkdir as mkdir4, mkdtemp as mkdtemp2 } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join6, resolve as resolve3 } from "node:path";

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
import { join as join3 } from "node:path";

// ../../main/node_modules/@actions/exec/lib/exec.js
import { StringDecoder } from "string_decoder";

// ../../main/node_modules/@actions/exec/lib/toolrunner.js
import * as os from "os";
import * as events from "events";
import * as child from "child_process";
import * as path3 from "path";

// ../../main/node_modules/@actions/io/lib/io.js
import * as path2 from "path";

// ../../main/node_modules/@actions/io/lib/io-util.js
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

// ../../main/node_modules/@actions/io/lib/io.js
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

// ../../main/node_modules/@actions/exec/lib/toolrunner.js
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
        cp.on("exit", (code) => {
          state.processExitCode = code;
          state.processExited = true;
          this._debug(`Exit code ${code} received from tool '${this.toolPath}'`);
          state.CheckComplete();
        });
        cp.on("close", (code) => {
          state.processExitCode = code;
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

// ../../main/node_modules/@actions/exec/lib/exec.js
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
function firstLine(text) {
  return text.split("\n").map((s) => s.trim()).find((s) => s !== "") ?? "";
}

// src/harness.ts
async function buildHarness(actionDir2, outDir) {
  const harnessDir = join3(actionDir2, "harness");
  if (!existsSync(join3(harnessDir, "go.mod"))) {
    throw new WiregateError(`the action's harness is missing (${harnessDir}/go.mod): use the action from its repository`);
  }
  const go = await run("go", ["version"]);
  if (go.code !== 0) throw new WiregateError("Go is not on PATH: add actions/setup-go before wiregate");
  const bin = join3(outDir, "wiregate");
  const built = await run("go", ["build", "-o", bin, "./cmd/wiregate"], { cwd: harnessDir });
  if (built.code !== 0) {
    throw new WiregateError(`building the wiregate harness failed: ${firstLine(built.stderr) || `exit code ${built.code}`}`);
  }
  return bin;
}
var FORWARDED = ["SIGINT", "SIGTERM"];
async function runWiregate(bin, args, cwd) {
  const child2 = spawn2(bin, args, { cwd, stdio: ["ignore", 2, 2] });
  const forward = (signal) => {
    child2.kill(signal);
  };
  for (const s of FORWARDED) process.on(s, forward);
  try {
    return await new Promise((resolve4, reject) => {
      child2.on("error", reject);
      child2.on("close", (code) => resolve4(code ?? 2));
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
import { mkdir as mkdir3, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { join as join5, resolve as resolve2 } from "node:path";

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
    default:
      return `${sig(x)} ${unit}`;
  }
}
function shortSha(sha) {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha;
}
function cell(text) {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
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
  for (const { kind, title, stage } of CHECKS) {
    if (!release || kind === "lint") {
      rows.push(checkRow(report, kind, title, stage, void 0));
      continue;
    }
    rows.push(checkRow(report, kind, `${title} vs the base`, stage, void 0));
    const releaseTitle = `${title} vs release \`${cell(release.ref)}\``;
    if (release.same_as_base) rows.push(`| ${releaseTitle} | = the base (same commit) | |`);
    else rows.push(checkRow(report, kind, releaseTitle, RELEASE_STAGES[kind], release.ref));
  }
  return rows.join("\n");
}
function checkRow(report, kind, title, stage, against) {
  const findings = report.findings.filter((f) => f.kind === kind && f.against === against);
  const violations = report.violations.filter((v) => v.kind === kind && v.against === against);
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
  const rule = f.rule ? ` ${f.rule}` : "";
  return `\`${where2}\`${rule}: ${f.message}`;
}

// src/render/details.ts
function details(summary, body) {
  return `<details><summary>${summary}</summary>

${body}

</details>`;
}
function benchstatDetails(report) {
  if (!report.benchstat) return "";
  return details("benchstat (base vs head)", "```text\n" + report.benchstat.trimEnd() + "\n```");
}
function noiseDetails(report) {
  const rows = [];
  for (const m of report.messages) {
    for (const f of m.formats) {
      for (const metric2 of f.metrics) {
        if (metric2.noise_floor_pct !== void 0) {
          rows.push(`| \`${m.name}/${f.format}/${metric2.name}\` | ${metric2.unit} | \xB1${pct(metric2.noise_floor_pct, false)} |`);
        }
      }
    }
  }
  for (const p of report.pipeline) {
    if (p.noise_floor_pct !== void 0) {
      rows.push(`| \`${p.message}/${p.format}/pipeline\` | records/s | \xB1${pct(p.noise_floor_pct, false)} |`);
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
    ["rounds per side", e.count],
    ["alpha", e.alpha],
    ["broker", broker],
    ["pipeline backlog", e.pipeline_n],
    ["consumer cap", e.consumer_cap]
  ];
  const rows = items.filter(([, v]) => v !== void 0 && v !== "").map(([k, v]) => `| ${k} | ${cell(String(v))} |`);
  if (rows.length === 0) return "";
  return details("environment", ["| | |", "|---|---|", ...rows].join("\n"));
}
function stagesDetails(report) {
  if (report.stages.length === 0) return "";
  const rows = report.stages.map(
    (s) => `| ${s.name} | ${s.seconds.toFixed(1)} s | ${s.error ? `\u274C ${cell(s.error)}` : ""} |`
  );
  const total = report.stages.reduce((sum, s) => sum + s.seconds, 0);
  rows.push(`| **total** | ${total.toFixed(1)} s | |`);
  return details("stage timings", ["| stage | time | |", "|---|---|---|", ...rows].join("\n"));
}
function ignoredDetails(report) {
  const ignored = report.ignored ?? [];
  if (ignored.length === 0) return "";
  const rows = ignored.map((i) => `| \`${cell(i.subject)}\` | ${cell(i.reason)} |`);
  return details(`ignored by wiregate.yaml (${ignored.length})`, ["| subject | reason |", "|---|---|", ...rows].join("\n"));
}
function errorsDetails(report) {
  const errors = report.errors ?? [];
  if (errors.length === 0) return "";
  return details("errors", errors.map((e) => `- ${e}`).join("\n"));
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
  const pipeline = report.pipeline.filter((p) => p.message === message.name);
  const rows = [
    "| format | bytes/msg | encode | decode | pipeline records/s |",
    "|---|---|---|---|---|"
  ];
  for (const f of message.formats) {
    const p = pipeline.find((x) => x.format === f.format);
    rows.push(
      `| ${f.format}${f.aliasing ? " (aliasing)" : ""} | ${sizeCell(f)} | ${timeCell(metric(f, "encode"))} | ${timeCell(metric(f, "decode"))} | ${pipelineCell(p)} |`
    );
  }
  const chart2 = bytesChart(message);
  return [`### \`${message.name}\``, rows.join("\n"), chart2, historyCharts(report, message.name)].filter((s) => s !== "").join("\n\n");
}
function metric(f, name) {
  return f.metrics.find((m) => m.name === name && m.unit === "sec/op");
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
    `    title "bytes/msg, base then head: ${message.name}"`,
    `    x-axis [${sized.map((f) => JSON.stringify(f.format)).join(", ")}]`,
    `    y-axis "bytes/msg" 0 --> ${top}`,
    `    bar [${base.join(", ")}]`,
    `    bar [${head.join(", ")}]`,
    "```"
  ].join("\n");
}
function num(x) {
  return Math.round(x * 10) / 10;
}

// src/render/verdict.ts
var KIND_WORDS = {
  lint: ["lint finding", "lint findings"],
  breaking: ["breaking change", "breaking changes"],
  avro: ["Avro incompatibility", "Avro incompatibilities"],
  size: ["size regression", "size regressions"],
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
    line = `## \u26D4 wiregate could not run: ${error.detail}`;
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
    const kind = vs[0].kind;
    const release = vs[0].against ? ` vs release ${vs[0].against}` : "";
    if (kind === "size" || kind === "time" || kind === "throughput") {
      const shown = vs.slice(0, 2).map((v) => `${kind} ${pct(v.delta_pct)} on ${v.subject}${limit(v)}`);
      if (vs.length > 2) shown.push(`${vs.length - 2} more ${KIND_WORDS[kind][1]}`);
      parts.push(...shown);
    } else {
      const [one, many] = KIND_WORDS[kind] ?? [kind, kind];
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
    const detail = numbers.length > 0 ? `${v.detail} (${numbers.join(", ")})` : v.detail;
    rows.push(`| ${mark} | ${kindCell(v, report)} | \`${cell(v.subject)}\` | ${cell(detail)} |`);
  }
  return rows.join("\n");
}
function kindCell(v, report) {
  if (v.against) return `${v.kind}: breaks release \`${cell(v.against)}\``;
  if (report.breaking_against && (v.kind === "breaking" || v.kind === "avro")) return `${v.kind}: breaks the base`;
  return v.kind;
}

// src/render/report.ts
function renderReport(report, ctx = {}) {
  const revs = `base \`${report.base.ref || "?"}\` @ ${shortSha(report.base.sha) || "?"} \u2192 head \`${report.head.ref || "?"}\` @ ${shortSha(report.head.sha) || "?"}`;
  const sections = [
    verdictLine(report),
    ctx.runUrl ? `${revs} \xB7 [run](${ctx.runUrl})` : revs,
    (report.warnings ?? []).map((w) => `> \u26A0\uFE0F ${w}`).join("\n>\n"),
    violationsTable(report),
    "#### Schema checks",
    checksTable(report),
    ...report.messages.map((m) => messageSection(report, m)),
    report.messages.length > 0 ? '<sub>Cells: base \u2192 head (delta, p). "~" means the change is not significant at alpha. Chart bars: base first, head second.</sub>' : "",
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
function parseReport(text) {
  const raw = JSON.parse(text);
  if (raw.version !== REPORT_VERSION) {
    throw new Error(`report.json has version ${String(raw.version)}, this action reads version ${REPORT_VERSION}`);
  }
  if (raw.result !== "pass" && raw.result !== "fail") {
    throw new Error(`report.json has result ${JSON.stringify(raw.result)}, want "pass" or "fail"`);
  }
  return {
    version: raw.version,
    result: raw.result,
    base: raw.base ?? { ref: "", sha: "" },
    head: raw.head ?? { ref: "", sha: "" },
    violations: raw.violations ?? [],
    messages: raw.messages ?? [],
    pipeline: raw.pipeline ?? [],
    findings: raw.findings ?? [],
    ignored: raw.ignored ?? [],
    env: raw.env ?? {},
    stages: raw.stages ?? [],
    benchstat: raw.benchstat,
    errors: raw.errors ?? [],
    warnings: raw.warnings ?? [],
    breaking_against: raw.breaking_against,
    history: raw.history ? { ...raw.history, messages: raw.history.messages ?? [] } : void 0
  };
}

// src/run.ts
async function runGate(plan, env, render = {}) {
  const outDir = resolve2(env.outDir);
  await mkdir3(outDir, { recursive: true });
  await mkdir3(env.tmpDir, { recursive: true });
  const reportJson = join5(outDir, "report.json");
  let report;
  let exitCode;
  try {
    const buf = await locateBuf([process.cwd(), env.actionDir], env.toolCache, env.log);
    const bin = await buildHarness(env.actionDir, await mkdtemp(join5(env.tmpDir, "wiregate-bin-")));
    exitCode = await runWiregate(bin, [...gateArgv(plan, env, buf, outDir), ...env.gateFlags], process.cwd());
    if (!existsSync3(reportJson)) {
      throw new WiregateError(`wiregate gate wrote no report.json (exit code ${exitCode})`);
    }
    report = parseReport(await readFile(reportJson, "utf8"));
  } catch (err) {
    if (!(err instanceof WiregateError)) env.log.info(err instanceof Error && err.stack ? err.stack : String(err));
    const message = errorMessage(err);
    env.log.error(message, { title: "wiregate could not run" });
    const stopped = errorReport({ ref: plan.baseLabel, sha: plan.baseRef }, { ref: plan.headLabel ?? "", sha: plan.headSha ?? "" }, message);
    return finish(stopped, EXIT_ERROR, outDir, render, true);
  }
  return finish(report, exitCode, outDir, render, false);
}
async function finish(report, exitCode, outDir, render, writeJson) {
  const reportJson = join5(outDir, "report.json");
  if (writeJson) await writeFile(reportJson, JSON.stringify(report, null, 2) + "\n");
  const markdown = renderReport(report, render);
  const reportMarkdown = join5(outDir, "report.md");
  await writeFile(reportMarkdown, markdown);
  return { report, markdown, exitCode, reportJson, reportMarkdown };
}
function gateArgv(plan, env, buf, outDir) {
  const argv = [
    "gate",
    `--base-ref=${plan.baseRef}`,
    `--base-label=${plan.baseLabel}`,
    `--labels=${JSON.stringify(plan.labels)}`,
    `--harness-dir=${join5(env.actionDir, "harness")}`,
    `--buf=${buf}`,
    `--tmp-dir=${env.tmpDir}`,
    `--out=${outDir}`
  ];
  if (plan.headSha) argv.push(`--head-sha=${plan.headSha}`);
  if (plan.headLabel) argv.push(`--head-label=${plan.headLabel}`);
  if (plan.recordHistory) argv.push("--record-history");
  return argv;
}

// src/local.ts
async function local(argv) {
  const { ours, passed } = splitArgs(argv);
  if (passed.some((a) => a === "-h" || a === "--help" || a === "-help")) {
    process.stdout.write(`${USAGE}

wiregate gate flags:
`);
    const tmp = join6(tmpdir(), "wiregate-local");
    await mkdir4(tmp, { recursive: true });
    const bin = await buildHarness(actionDir(import.meta.url), await mkdtemp2(join6(tmp, "wiregate-bin-")));
    return runWiregate(bin, ["gate", "--help"], process.cwd());
  }
  const base = ours.base || "HEAD";
  const outDir = resolve3(ours.out || ".wiregate");
  const result = await runGate(
    { baseRef: base, baseLabel: base, labels: [] },
    {
      actionDir: actionDir(import.meta.url),
      tmpDir: join6(tmpdir(), "wiregate-local"),
      toolCache: join6(tmpdir(), "wiregate-tools"),
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
