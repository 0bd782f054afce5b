/** Where a run reports progress and annotations: @actions/core in the
 * action, stderr in a local run. */
export interface Annotation {
  title: string
  file?: string
  startLine?: number
  startColumn?: number
}

export interface Log {
  info(message: string): void
  warning(message: string, annotation?: Annotation): void
  error(message: string, annotation?: Annotation): void
}

export const stderrLog: Log = {
  info: m => process.stderr.write(`${m}\n`),
  warning: (m, a) => process.stderr.write(`warning: ${where(a)}${m}\n`),
  error: (m, a) => process.stderr.write(`error: ${where(a)}${m}\n`)
}

function where(a: Annotation | undefined): string {
  if (!a?.file) return ''
  return `${[a.file, a.startLine, a.startColumn].filter(x => x !== undefined).join(':')}: `
}
