// `npm run gate`: the action's gate on the working tree, no GitHub involved.
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { actionDir } from './actionDir.js'
import { EXIT_ERROR, errorMessage } from './errors.js'
import { readInputs } from './inputs.js'
import { parseLocalArgs, LOCAL_USAGE } from './localArgs.js'
import { stderrLog } from './log.js'
import { runGate } from './run.js'
import { headInfo } from './worktree.js'

async function local(argv: string[]): Promise<number> {
  const args = parseLocalArgs(argv)
  if (args === 'help') {
    process.stdout.write(`${LOCAL_USAGE}\n`)
    return 0
  }
  const inputs = readInputs(name => args.inputs[name] ?? '')
  const head = await headInfo(resolve(inputs.workingDirectory))
  const plan = {
    baseRef: args.base,
    baseLabel: args.base,
    headSha: head.dirty ? `${head.sha.slice(0, 12)}+dirty` : head.sha,
    headLabel: head.ref === 'HEAD' ? 'working tree' : `${head.ref} (working tree)`,
    labels: []
  }
  const root = actionDir(import.meta.url)
  const result = await runGate(inputs, plan, {
    actionDir: root,
    tmpDir: join(tmpdir(), 'wiregate-local'),
    toolCache: join(tmpdir(), 'wiregate-tools'),
    outDir: resolve(args.out),
    log: stderrLog
  })
  process.stdout.write(result.markdown)
  process.stderr.write(`\nwiregate: ${result.report.result} (exit ${result.exitCode}); reports in ${resolve(args.out)}\n`)
  return result.exitCode
}

try {
  process.exitCode = await local(process.argv.slice(2))
} catch (err) {
  process.stderr.write(`wiregate: ${errorMessage(err)}\n`)
  process.exitCode = EXIT_ERROR
}
