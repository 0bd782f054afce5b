import { parseArgs } from 'node:util'
import { WiregateError } from './errors.js'
import type { InputName } from './inputs.js'

export interface LocalArgs {
  base: string
  out: string
  /** raw input values by action input name; readInputs validates them */
  inputs: Partial<Record<InputName, string>>
}

export const LOCAL_USAGE = `usage: npm run gate -- [--base REF] [--messages a.B,c.D] [--formats json,protobuf,avro]
       [--count N] [--no-pipeline] [--pipeline-messages N] [--broker auto|redpanda|embedded|host:port]
       [--working-directory DIR] [--buf-input DIR] [--samples DIR] [--size-threshold 5%]
       [--time-threshold 10%] [--throughput-threshold 10%] [--alpha 0.05] [--no-lint] [--no-breaking]
       [--out DIR]
Gates the working tree against REF (default HEAD), prints report.md, writes .wiregate/ (or --out).`

const PASSED_THROUGH: InputName[] = [
  'messages',
  'formats',
  'count',
  'pipeline-messages',
  'broker',
  'working-directory',
  'buf-input',
  'samples',
  'avro-schemas',
  'avro-compatibility',
  'size-threshold',
  'time-threshold',
  'throughput-threshold',
  'alpha'
]

/** parseLocalArgs maps `npm run gate -- …` flags onto the action's inputs. */
export function parseLocalArgs(argv: string[]): LocalArgs | 'help' {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    base: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean' },
    'no-pipeline': { type: 'boolean' },
    'no-lint': { type: 'boolean' },
    'no-breaking': { type: 'boolean' }
  }
  for (const name of PASSED_THROUGH) options[name] = { type: 'string' }
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values
  } catch (err) {
    throw new WiregateError(`${err instanceof Error ? err.message : String(err)}\n${LOCAL_USAGE}`)
  }
  if (values.help) return 'help'
  const inputs: Partial<Record<InputName, string>> = { comment: 'false' }
  for (const name of PASSED_THROUGH) {
    const v = values[name]
    if (typeof v === 'string') inputs[name] = v
  }
  if (values['no-pipeline']) inputs.pipeline = 'false'
  if (values['no-lint']) inputs.lint = 'false'
  if (values['no-breaking']) inputs.breaking = 'false'
  return { base: (values.base as string | undefined) || 'HEAD', out: (values.out as string | undefined) || '.wiregate', inputs }
}
