// `npm run gate`: the action's gate on the working tree, no GitHub involved.
// --base and --out are ours; every other flag goes to `wiregate gate` as
// it is (`npm run gate -- --help` lists them).
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { actionDir } from './actionDir.js'
import { EXIT_ERROR, errorMessage } from './errors.js'
import { buildHarness, runWiregate } from './harness.js'
import { stderrLog } from './log.js'
import { splitArgs, USAGE } from './localArgs.js'
import { runGate } from './run.js'

async function local(argv: string[]): Promise<number> {
  const { ours, passed } = splitArgs(argv)
  if (passed.some(a => a === '-h' || a === '--help' || a === '-help')) {
    process.stdout.write(`${USAGE}\n\nwiregate gate flags:\n`)
    const tmp = join(tmpdir(), 'wiregate-local')
    await mkdir(tmp, { recursive: true })
    const { bin } = await buildHarness(actionDir(import.meta.url), await mkdtemp(join(tmp, 'wiregate-bin-')))
    return runWiregate(bin, ['gate', '--help'], process.cwd())
  }
  const base = ours.base || 'HEAD'
  const outDir = resolve(ours.out || '.wiregate')
  const result = await runGate(
    { baseRef: base, baseLabel: base, labels: [] },
    {
      actionDir: actionDir(import.meta.url),
      tmpDir: join(tmpdir(), 'wiregate-local'),
      toolCache: join(tmpdir(), 'wiregate-tools'),
      outDir,
      gateFlags: passed,
      log: stderrLog
    }
  )
  process.stdout.write(result.markdown)
  process.stderr.write(`\nwiregate: ${result.report.result} (exit ${result.exitCode}); reports in ${outDir}\n`)
  return result.exitCode
}

try {
  process.exitCode = await local(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`wiregate: ${errorMessage(err)}\n`)
  process.exitCode = EXIT_ERROR
}
