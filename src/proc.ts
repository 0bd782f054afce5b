import { getExecOutput } from '@actions/exec'

export interface ProcResult {
  code: number
  stdout: string
  stderr: string
}

export interface ProcOptions {
  cwd?: string
  env?: Record<string, string>
  /** stream the child's output to stderr as it runs (long stages) */
  stream?: boolean
  /** what the child reads on stdin */
  input?: string
}

/** run executes a program and never throws on a non-zero exit: callers decide.
 * A missing program is reported as code 127. */
export async function run(command: string, args: string[], opts: ProcOptions = {}): Promise<ProcResult> {
  try {
    const r = await getExecOutput(command, args, {
      cwd: opts.cwd,
      env: opts.env ? { ...(process.env as Record<string, string>), ...opts.env } : undefined,
      ignoreReturnCode: true,
      input: opts.input === undefined ? undefined : Buffer.from(opts.input, 'utf8'),
      silent: !opts.stream,
      outStream: opts.stream ? process.stderr : undefined,
      errStream: process.stderr
    })
    return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr }
  } catch (err) {
    // @actions/exec throws when the program is not found on PATH.
    return { code: 127, stdout: '', stderr: err instanceof Error ? err.message : String(err) }
  }
}

export function firstLine(text: string): string {
  return text.split('\n').map(s => s.trim()).find(s => s !== '') ?? ''
}
