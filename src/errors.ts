/** WiregateError means wiregate itself could not run (exit code 2), as
 * opposed to a gate that ran and failed (exit code 1). The message is one
 * line that names the file or input and the fix. */
export class WiregateError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WiregateError'
  }
}

export const EXIT_PASS = 0
export const EXIT_FAIL = 1
export const EXIT_ERROR = 2

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
