import { createRequire as __wiregateCreateRequire } from 'node:module'; const require = __wiregateCreateRequire(import.meta.url);

// src/local.ts
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
var EXIT_PASS = 0;
var EXIT_FAIL = 1;
var EXIT_ERROR = 2;
function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

// src/inputs.ts
var INPUT_DEFAULTS = {
  "github-token": "",
  "working-directory": ".",
  "buf-input": ".",
  messages: "",
  samples: "",
  "avro-schemas": "**/*.avsc",
  "avro-compatibility": "BACKWARD",
  formats: "json,protobuf,avro",
  "base-ref": "",
  lint: "true",
  breaking: "true",
  "size-threshold": "5%",
  "time-threshold": "10%",
  "throughput-threshold": "10%",
  alpha: "0.05",
  count: "10",
  pipeline: "true",
  "pipeline-messages": "200000",
  broker: "auto",
  comment: "true"
};
var KNOWN_FORMATS = ["json", "protobuf", "avro", "protojson", "vtprotobuf", "msgpack", "cbor"];
var AVRO_LEVELS = [
  "BACKWARD",
  "BACKWARD_TRANSITIVE",
  "FORWARD",
  "FORWARD_TRANSITIVE",
  "FULL",
  "FULL_TRANSITIVE",
  "NONE"
];
function readInputs(get) {
  const raw = (name) => {
    const v = get(name).trim();
    return v === "" ? INPUT_DEFAULTS[name] : v;
  };
  return {
    githubToken: raw("github-token"),
    workingDirectory: raw("working-directory"),
    bufInput: raw("buf-input"),
    messages: parseMessages(raw("messages")),
    samples: raw("samples"),
    avroSchemas: raw("avro-schemas"),
    avroCompatibility: parseAvroLevel(raw("avro-compatibility")),
    formats: parseFormats(raw("formats")),
    baseRef: raw("base-ref"),
    lint: parseBool("lint", raw("lint")),
    breaking: parseBool("breaking", raw("breaking")),
    sizeThreshold: parsePercent("size-threshold", raw("size-threshold")),
    timeThreshold: parsePercent("time-threshold", raw("time-threshold")),
    throughputThreshold: parsePercent("throughput-threshold", raw("throughput-threshold")),
    alpha: parseAlpha(raw("alpha")),
    count: parsePositiveInt("count", raw("count")),
    pipeline: parseBool("pipeline", raw("pipeline")),
    pipelineMessages: parsePositiveInt("pipeline-messages", raw("pipeline-messages")),
    broker: parseBroker(raw("broker")),
    comment: parseBool("comment", raw("comment"))
  };
}
function bad(name, value, want) {
  return new WiregateError(`input '${name}' is ${JSON.stringify(value)}: want ${want}`);
}
function splitList(value) {
  return value.split(/[,\n]/).map((s) => s.trim()).filter((s) => s !== "");
}
function parseBool(name, value) {
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw bad(name, value, "true or false");
}
function parsePercent(name, value) {
  const m = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value);
  if (!m) throw bad(name, value, "a non-negative percentage such as 5%");
  return `${Number(m[1])}%`;
}
function parseAlpha(value) {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(n > 0 && n < 1)) throw bad("alpha", value, "a number between 0 and 1 such as 0.05");
  return n;
}
function parsePositiveInt(name, value) {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw bad(name, value, "a whole number of at least 1");
  return Number(value);
}
function parseMessages(value) {
  const names = splitList(value);
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(n)) {
      throw bad("messages", n, "fully qualified message names such as telemetry.v1.TelemetryEvent");
    }
  }
  return names;
}
function parseFormats(value) {
  const formats = splitList(value).map((f) => f.toLowerCase());
  if (formats.length === 0) throw bad("formats", value, `one or more of ${KNOWN_FORMATS.join(", ")}`);
  for (const f of formats) {
    if (!KNOWN_FORMATS.includes(f)) {
      throw bad("formats", f, `one of ${KNOWN_FORMATS.join(", ")}`);
    }
  }
  return [...new Set(formats)];
}
function parseAvroLevel(value) {
  const level = value.toUpperCase();
  if (!AVRO_LEVELS.includes(level)) {
    throw bad("avro-compatibility", value, AVRO_LEVELS.join(", "));
  }
  return level;
}
function parseBroker(value) {
  if (["auto", "redpanda", "embedded"].includes(value)) return value;
  const addrs = splitList(value);
  if (addrs.length > 0 && addrs.every((a) => /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(a))) return addrs.join(",");
  throw bad("broker", value, "auto, redpanda, embedded, or host:port[,host:port\u2026]");
}

// src/localArgs.ts
import { parseArgs } from "node:util";
var LOCAL_USAGE = `usage: npm run gate -- [--base REF] [--messages a.B,c.D] [--formats json,protobuf,avro]
       [--count N] [--no-pipeline] [--pipeline-messages N] [--broker auto|redpanda|embedded|host:port]
       [--working-directory DIR] [--buf-input DIR] [--samples DIR] [--size-threshold 5%]
       [--time-threshold 10%] [--throughput-threshold 10%] [--alpha 0.05] [--no-lint] [--no-breaking]
       [--out DIR]
Gates the working tree against REF (default HEAD), prints report.md, writes .wiregate/ (or --out).`;
var PASSED_THROUGH = [
  "messages",
  "formats",
  "count",
  "pipeline-messages",
  "broker",
  "working-directory",
  "buf-input",
  "samples",
  "avro-schemas",
  "avro-compatibility",
  "size-threshold",
  "time-threshold",
  "throughput-threshold",
  "alpha"
];
function parseLocalArgs(argv) {
  const options = {
    base: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean" },
    "no-pipeline": { type: "boolean" },
    "no-lint": { type: "boolean" },
    "no-breaking": { type: "boolean" }
  };
  for (const name of PASSED_THROUGH) options[name] = { type: "string" };
  let values;
  try {
    values = parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new WiregateError(`${err instanceof Error ? err.message : String(err)}
${LOCAL_USAGE}`);
  }
  if (values.help) return "help";
  const inputs = { comment: "false" };
  for (const name of PASSED_THROUGH) {
    const v = values[name];
    if (typeof v === "string") inputs[name] = v;
  }
  if (values["no-pipeline"]) inputs.pipeline = "false";
  if (values["no-lint"]) inputs.lint = "false";
  if (values["no-breaking"]) inputs.breaking = "false";
  return { base: values.base || "HEAD", out: values.out || ".wiregate", inputs };
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

// src/run.ts
import { mkdir as mkdir3, mkdtemp as mkdtemp2, writeFile } from "node:fs/promises";
import { join as join6, resolve as resolve2 } from "node:path";

// src/buf.ts
import { existsSync } from "node:fs";
import { mkdir as mkdir2 } from "node:fs/promises";
import { join as join3 } from "node:path";

// src/bufFindings.ts
import { posix } from "node:path";
function parseBufOutput(stdout) {
  const annotations = [];
  const other = [];
  for (const line of stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "")) {
    try {
      const a = JSON.parse(line);
      if (typeof a === "object" && a !== null && typeof a.type === "string") annotations.push(a);
      else other.push(line);
    } catch {
      other.push(line);
    }
  }
  return { annotations, other };
}
function compileError(annotations, fileRoot) {
  const c = annotations.find((a) => a.type === "COMPILE");
  if (!c) return void 0;
  const where2 = [repoPath(fileRoot, c.path), c.start_line, c.start_column].filter((x) => x !== void 0 && x !== 0).join(":");
  return `${where2}: ${c.message} (the schema does not compile; fix it and push again)`;
}
function toFindings(kind, annotations, fileRoot) {
  return annotations.map((a) => ({
    kind,
    file: repoPath(fileRoot, a.path),
    line: a.start_line || void 0,
    column: a.start_column || void 0,
    rule: a.type,
    message: a.message
  }));
}
function repoPath(fileRoot, path4) {
  if (!path4) return fileRoot === "" ? "." : fileRoot;
  return posix.normalize(posix.join(fileRoot || ".", path4));
}

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
        state.on("done", (error, exitCode2) => {
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
            resolve4(exitCode2);
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
    const exitCode2 = yield exec(commandLine, args, Object.assign(Object.assign({}, options), { listeners }));
    stdout += stdoutDecoder.end();
    stderr += stderrDecoder.end();
    return {
      exitCode: exitCode2,
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

// src/buf.ts
var BUF_VERSION = "1.75.0";
async function versionOf(path4) {
  const r = await run(path4, ["--version"]);
  return r.code === 0 ? r.stdout.trim() : void 0;
}
async function locateBuf(searchDirs, toolCache, log) {
  if (await versionOf("buf") === BUF_VERSION) return "buf";
  for (const dir of searchDirs) {
    const candidate = join3(dir, "node_modules", ".bin", "buf");
    if (existsSync(candidate) && await versionOf(candidate) === BUF_VERSION) return candidate;
  }
  const prefix = join3(toolCache, "wiregate-buf", BUF_VERSION);
  const installed = join3(prefix, "node_modules", ".bin", "buf");
  if (existsSync(installed) && await versionOf(installed) === BUF_VERSION) return installed;
  log.info(`installing @bufbuild/buf@${BUF_VERSION} into ${prefix}`);
  await mkdir2(prefix, { recursive: true });
  const npm = await run("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `@bufbuild/buf@${BUF_VERSION}`]);
  if (npm.code !== 0 || await versionOf(installed) !== BUF_VERSION) {
    throw new WiregateError(`could not install @bufbuild/buf@${BUF_VERSION} with npm: ${firstLine(npm.stderr) || "buf did not run"}`);
  }
  return installed;
}
async function bufLint(c) {
  return bufFindings(c, "lint", ["lint", c.bufInput, "--error-format=json"]);
}
async function bufBreaking(c, againstDir) {
  const against = join3(againstDir, c.bufInput);
  if (!existsSync(against)) {
    throw new WiregateError(`input 'buf-input' (${c.bufInput}) does not exist in the base commit: set 'breaking: false' for the first run`);
  }
  return bufFindings(c, "breaking", ["breaking", c.bufInput, "--against", against, "--error-format=json"]);
}
async function bufFindings(c, kind, args) {
  if (!existsSync(join3(c.cwd, c.bufInput))) {
    throw new WiregateError(`input 'buf-input' (${c.bufInput}) does not exist in ${c.cwd}`);
  }
  const r = await run(c.buf, args, { cwd: c.cwd });
  const { annotations, other } = parseBufOutput(r.stdout);
  const compile = compileError(annotations, c.fileRoot);
  if (compile) throw new WiregateError(compile);
  if (r.code === 0 || r.code === 100 && other.length === 0) return toFindings(kind, annotations, c.fileRoot);
  const why = firstLine(r.stderr) || firstLine(other.join("\n")) || `exit code ${r.code}`;
  throw new WiregateError(`buf ${kind} failed on input 'buf-input' (${c.bufInput}): ${why}`);
}

// src/gate.ts
var ALLOW_BREAKING_LABEL = "wiregate allow breaking";
var ALLOW_REGRESSION_LABEL = "wiregate allow regression";
function allowFlags(labels) {
  const have = new Set(labels.map((l) => l.trim().toLowerCase()));
  const allow = [];
  if (have.has(ALLOW_BREAKING_LABEL)) allow.push("breaking");
  if (have.has(ALLOW_REGRESSION_LABEL)) allow.push("regression");
  return allow;
}
function couldNotRun(report) {
  return report.violations.some((v) => v.kind === "error" && !v.allowed);
}
function exitCode(report) {
  if (couldNotRun(report)) return EXIT_ERROR;
  return report.result === "pass" ? EXIT_PASS : EXIT_FAIL;
}

// src/harness.ts
import { existsSync as existsSync2 } from "node:fs";
import { readFile } from "node:fs/promises";
import { join as join4 } from "node:path";

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
    errors: raw.errors ?? []
  };
}

// src/harness.ts
async function buildHarness(actionDir2, outDir) {
  const harnessDir = join4(actionDir2, "harness");
  if (!existsSync2(join4(harnessDir, "go.mod"))) {
    throw new WiregateError(`the action's harness is missing (${harnessDir}/go.mod): use the action from its repository`);
  }
  const go = await run("go", ["version"]);
  if (go.code !== 0) throw new WiregateError("Go is not on PATH: add actions/setup-go before wiregate");
  const bin = join4(outDir, "wiregate");
  const built = await run("go", ["build", "-o", bin, "./cmd/wiregate"], { cwd: harnessDir });
  if (built.code !== 0) {
    throw new WiregateError(`building the wiregate harness failed: ${firstLine(built.stderr) || `exit code ${built.code}`}`);
  }
  return bin;
}
function gateArgv(a) {
  return [
    "gate",
    `--harness-dir=${a.harnessDir}`,
    `--base-dir=${a.baseDir}`,
    `--head-dir=${a.headDir}`,
    `--buf=${a.buf}`,
    `--buf-input=${a.bufInput}`,
    `--messages=${a.messages.join(",")}`,
    `--samples=${a.samples}`,
    `--formats=${a.formats.join(",")}`,
    `--avro-schemas=${a.avroSchemas}`,
    `--avro-compatibility=${a.avroCompatibility}`,
    `--size-threshold=${a.sizeThreshold}`,
    `--time-threshold=${a.timeThreshold}`,
    `--throughput-threshold=${a.throughputThreshold}`,
    `--alpha=${a.alpha}`,
    `--count=${a.count}`,
    `--pipeline=${a.pipeline}`,
    `--pipeline-messages=${a.pipelineMessages}`,
    `--broker=${a.broker}`,
    `--findings=${a.findings}`,
    `--allow=${a.allow.join(",")}`,
    `--base-ref=${a.baseRef}`,
    `--base-sha=${a.baseSha}`,
    `--head-ref=${a.headRef}`,
    `--head-sha=${a.headSha}`,
    `--out=${a.out}`
  ];
}
async function runHarnessGate(bin, args) {
  const r = await run(bin, gateArgv(args), { cwd: args.headDir, stream: true });
  const path4 = join4(args.out, "report.json");
  if (!existsSync2(path4)) {
    throw new WiregateError(`wiregate gate wrote no report.json (exit code ${r.code}): ${lastLine(r.stderr) || "no output"}`);
  }
  try {
    return { report: parseReport(await readFile(path4, "utf8")), code: r.code };
  } catch (err) {
    throw new WiregateError(`wiregate gate wrote an unreadable ${path4}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
function lastLine(text) {
  return text.trim().split("\n").pop()?.trim() ?? "";
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
function shortSha(sha) {
  return /^[0-9a-f]{40}$/i.test(sha) ? sha.slice(0, 7) : sha;
}
function cell(text) {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

// src/render/checks.ts
var CHECKS = [
  { kind: "lint", title: "buf lint" },
  { kind: "breaking", title: "buf breaking" },
  { kind: "avro", title: "Avro compatibility" }
];
var SHOWN_PER_CHECK = 5;
function checksTable(report) {
  const rows = ["| check | result | findings |", "|---|---|---|"];
  for (const { kind, title } of CHECKS) {
    const findings = report.findings.filter((f) => f.kind === kind);
    const violations = report.violations.filter((v) => v.kind === kind);
    const allowed = violations.length > 0 && violations.every((v) => v.allowed);
    let status;
    if (findings.length === 0 && violations.length === 0) status = "\u2705 ok";
    else if (allowed) status = `\u26A0\uFE0F ${count(findings, violations)} (allowed)`;
    else if (violations.length > 0) status = `\u274C ${count(findings, violations)}`;
    else status = `\u2139\uFE0F ${findings.length} (not gating)`;
    const shown = findings.slice(0, SHOWN_PER_CHECK).map(findingText);
    if (findings.length > SHOWN_PER_CHECK) shown.push(`\u2026 ${findings.length - SHOWN_PER_CHECK} more`);
    rows.push(`| ${title} | ${status} | ${cell(shown.join("<br>"))} |`);
  }
  return rows.join("\n");
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
  const chart = bytesChart(message);
  return [`### \`${message.name}\``, rows.join("\n"), chart].filter((s) => s !== "").join("\n\n");
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
  for (const v of violations) byKind.set(v.kind, [...byKind.get(v.kind) ?? [], v]);
  for (const [kind, vs] of byKind) {
    if (kind === "size" || kind === "time" || kind === "throughput") {
      const shown = vs.slice(0, 2).map((v) => `${kind} ${pct(v.delta_pct)} on ${v.subject}${limit(v)}`);
      if (vs.length > 2) shown.push(`${vs.length - 2} more ${KIND_WORDS[kind][1]}`);
      parts.push(...shown);
    } else {
      const [one, many] = KIND_WORDS[kind] ?? [kind, kind];
      parts.push(`${vs.length} ${vs.length === 1 ? one : many}`);
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
      v.delta_pct !== void 0 ? pct(v.delta_pct) : "",
      v.threshold_pct !== void 0 ? `limit ${pct(v.threshold_pct, false)}` : "",
      pValue(v.p)
    ].filter((s) => s !== "");
    const detail = numbers.length > 0 ? `${v.detail} (${numbers.join(", ")})` : v.detail;
    rows.push(`| ${mark} | ${v.kind} | \`${cell(v.subject)}\` | ${cell(detail)} |`);
  }
  return rows.join("\n");
}

// src/render/report.ts
function renderReport(report, ctx = {}) {
  const revs = `base \`${report.base.ref || "?"}\` @ ${shortSha(report.base.sha) || "?"} \u2192 head \`${report.head.ref || "?"}\` @ ${shortSha(report.head.sha) || "?"}`;
  const sections = [
    verdictLine(report),
    ctx.runUrl ? `${revs} \xB7 [run](${ctx.runUrl})` : revs,
    violationsTable(report),
    "#### Schema checks",
    checksTable(report),
    ...report.messages.map((m) => messageSection(report, m)),
    report.messages.length > 0 ? '<sub>Cells: base \u2192 head (delta, p). "~" means the change is not significant at alpha. Chart bars: base first, head second.</sub>' : "",
    benchstatDetails(report),
    noiseDetails(report),
    ignoredDetails(report),
    environmentDetails(report),
    stagesDetails(report),
    errorsDetails(report)
  ];
  return sections.filter((s) => s !== "").join("\n\n") + "\n";
}

// src/worktree.ts
import { mkdtemp } from "node:fs/promises";
import { join as join5 } from "node:path";
async function git(cwd, ...args) {
  const r = await run("git", args, { cwd });
  return { code: r.code, out: r.stdout.trim(), err: r.stderr.trim() };
}
async function resolveCommit(cwd, ref) {
  for (const candidate of [ref, `origin/${ref}`]) {
    const r = await git(cwd, "rev-parse", "--verify", "--quiet", `${candidate}^{commit}`);
    if (r.code === 0 && r.out) return r.out;
  }
  return void 0;
}
async function checkoutBase(workingDirectory, ref, tmpRoot) {
  const top = await git(workingDirectory, "rev-parse", "--show-toplevel");
  if (top.code !== 0) {
    throw new WiregateError(`input 'working-directory' (${workingDirectory}) is not inside a git repository: ${firstLine(top.err)}`);
  }
  const prefix = (await git(workingDirectory, "rev-parse", "--show-prefix")).out;
  let sha = await resolveCommit(workingDirectory, ref);
  if (!sha) {
    const fetched = await git(workingDirectory, "fetch", "--no-tags", "--depth=1", "origin", ref);
    if (fetched.code === 0) sha = await resolveCommit(workingDirectory, "FETCH_HEAD");
  }
  if (!sha) {
    throw new WiregateError(
      `base commit ${ref} is not in this clone and could not be fetched: set 'fetch-depth: 0' on actions/checkout`
    );
  }
  const root = await mkdtemp(join5(tmpRoot, "wiregate-base-"));
  const added = await git(workingDirectory, "worktree", "add", "--detach", root, sha);
  if (added.code !== 0) {
    throw new WiregateError(`git worktree add for base ${sha} failed: ${firstLine(added.err)}`);
  }
  return {
    sha,
    root,
    dir: prefix ? join5(root, prefix) : root,
    prefix: prefix.replace(/\/$/, ""),
    remove: async () => {
      await git(workingDirectory, "worktree", "remove", "--force", root);
    }
  };
}
async function headInfo(workingDirectory) {
  const sha = (await git(workingDirectory, "rev-parse", "HEAD")).out;
  const ref = (await git(workingDirectory, "rev-parse", "--abbrev-ref", "HEAD")).out;
  const dirty = (await git(workingDirectory, "status", "--porcelain")).out !== "";
  return { sha, ref, dirty };
}

// src/run.ts
async function runGate(inputs, plan, env, render = {}) {
  const outDir = resolve2(env.outDir);
  await mkdir3(outDir, { recursive: true });
  await mkdir3(env.tmpDir, { recursive: true });
  const workingDirectory = resolve2(inputs.workingDirectory);
  const stages = [];
  const findings = [];
  let base;
  let report;
  const timed = async (name, f) => {
    const start = Date.now();
    try {
      return await f();
    } finally {
      stages.push({ name, seconds: (Date.now() - start) / 1e3 });
    }
  };
  try {
    base = await timed("base checkout", () => checkoutBase(workingDirectory, plan.baseRef, env.tmpDir));
    const baseCheckout = base;
    const buf = await timed("locate buf", () => locateBuf([workingDirectory, env.actionDir], env.toolCache, env.log));
    const check = { buf, cwd: workingDirectory, bufInput: inputs.bufInput, fileRoot: join6(baseCheckout.prefix, inputs.bufInput) };
    if (inputs.lint) findings.push(...await timed("buf lint", () => bufLint(check)));
    if (inputs.breaking) findings.push(...await timed("buf breaking", () => bufBreaking(check, baseCheckout.dir)));
    annotate(findings, plan, env.log);
    const findingsPath = join6(outDir, "findings.json");
    await writeFile(findingsPath, JSON.stringify(findings, null, 2) + "\n");
    const binDir = await mkdtemp2(join6(env.tmpDir, "wiregate-bin-"));
    const bin = await timed("build harness", () => buildHarness(env.actionDir, binDir));
    const gate = await runHarnessGate(bin, {
      ...inputs,
      harnessDir: join6(env.actionDir, "harness"),
      baseDir: baseCheckout.dir,
      headDir: workingDirectory,
      buf,
      findings: findingsPath,
      allow: allowFlags(plan.labels),
      baseRef: plan.baseLabel,
      baseSha: baseCheckout.sha,
      headRef: plan.headLabel,
      headSha: plan.headSha,
      out: outDir
    });
    report = gate.report;
    report.stages = [...stages, ...report.stages];
    if (gate.code !== exitCode(report)) {
      env.log.warning(`wiregate gate exited ${gate.code} but report.json says ${report.result}; following report.json`);
    }
  } catch (err) {
    if (!(err instanceof WiregateError)) env.log.info(err instanceof Error && err.stack ? err.stack : String(err));
    const message = errorMessage(err);
    env.log.error(message, { title: "wiregate could not run" });
    report = errorReport(
      { ref: plan.baseLabel, sha: base?.sha ?? plan.baseRef },
      { ref: plan.headLabel, sha: plan.headSha },
      message,
      findings,
      stages
    );
    await writeReportJson(report, outDir);
  } finally {
    await base?.remove();
  }
  return writeMarkdown(report, outDir, render);
}
async function writeReportJson(report, outDir) {
  await writeFile(join6(outDir, "report.json"), JSON.stringify(report, null, 2) + "\n");
}
async function writeMarkdown(report, outDir, render) {
  const markdown = renderReport(report, render);
  const reportMarkdown = join6(outDir, "report.md");
  await writeFile(reportMarkdown, markdown);
  return { report, markdown, exitCode: exitCode(report), reportJson: join6(outDir, "report.json"), reportMarkdown };
}
function annotate(findings, plan, log) {
  const allowBreaking = allowFlags(plan.labels).includes("breaking");
  for (const f of findings) {
    const annotation = { title: `buf ${f.kind}${f.rule ? `: ${f.rule}` : ""}`, file: f.file, startLine: f.line, startColumn: f.column };
    if (f.kind === "breaking" && allowBreaking) log.warning(f.message, annotation);
    else log.error(f.message, annotation);
  }
}

// src/local.ts
async function local(argv) {
  const args = parseLocalArgs(argv);
  if (args === "help") {
    process.stdout.write(`${LOCAL_USAGE}
`);
    return 0;
  }
  const inputs = readInputs((name) => args.inputs[name] ?? "");
  const head = await headInfo(resolve3(inputs.workingDirectory));
  const plan = {
    baseRef: args.base,
    baseLabel: args.base,
    headSha: head.dirty ? `${head.sha.slice(0, 12)}+dirty` : head.sha,
    headLabel: head.ref === "HEAD" ? "working tree" : `${head.ref} (working tree)`,
    labels: []
  };
  const root = actionDir(import.meta.url);
  const result = await runGate(inputs, plan, {
    actionDir: root,
    tmpDir: join7(tmpdir(), "wiregate-local"),
    toolCache: join7(tmpdir(), "wiregate-tools"),
    outDir: resolve3(args.out),
    log: stderrLog
  });
  process.stdout.write(result.markdown);
  process.stderr.write(`
wiregate: ${result.report.result} (exit ${result.exitCode}); reports in ${resolve3(args.out)}
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
