// The command line of `npm run gate` (src/local.ts).

export const USAGE = `usage: npm run gate -- [--base REF] [--out DIR] [wiregate gate flags…]
Gates the working tree against REF (default HEAD), prints report.md, writes .wiregate/ (or --out).
Every input of the action is a flag of the same name (--messages, --count, --pipeline=false, …).`

/** splitArgs takes --base and --out (as --flag value or --flag=value) and
 * leaves every other argument for `wiregate gate`. */
export function splitArgs(argv: string[]): { ours: Record<string, string>; passed: string[] } {
  const ours: Record<string, string> = {}
  const passed: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(base|out)(?:=(.*))?$/.exec(argv[i]!)
    if (!m) passed.push(argv[i]!)
    else ours[m[1]!] = m[2] ?? argv[++i] ?? ''
  }
  return { ours, passed }
}
