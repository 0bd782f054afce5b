/** Where a run reports progress and annotations: @actions/core in the
 * action, stderr in a local run. */
export interface Annotation {
  title: string
}

export interface Log {
  info(message: string): void
  warning(message: string, annotation?: Annotation): void
  error(message: string, annotation?: Annotation): void
}

export const stderrLog: Log = {
  info: m => process.stderr.write(`${m}\n`),
  warning: m => process.stderr.write(`warning: ${m}\n`),
  error: m => process.stderr.write(`error: ${m}\n`)
}
