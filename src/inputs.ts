import { WiregateError } from './errors.js'

// Every input of action.yml with its default. The runner applies action.yml's
// defaults, but a local or test run does not, so the same defaults live here.
export const INPUT_DEFAULTS = {
  'github-token': '',
  'working-directory': '.',
  'buf-input': '.',
  messages: '',
  samples: '',
  'avro-schemas': '**/*.avsc',
  'avro-compatibility': 'BACKWARD',
  formats: 'json,protobuf,avro',
  'base-ref': '',
  lint: 'true',
  breaking: 'true',
  'size-threshold': '5%',
  'time-threshold': '10%',
  'throughput-threshold': '10%',
  alpha: '0.05',
  count: '10',
  pipeline: 'true',
  'pipeline-messages': '200000',
  broker: 'auto',
  comment: 'true'
} as const

export type InputName = keyof typeof INPUT_DEFAULTS

export const KNOWN_FORMATS = ['json', 'protobuf', 'avro', 'protojson', 'vtprotobuf', 'msgpack', 'cbor'] as const

export const AVRO_LEVELS = [
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
  'NONE'
] as const

export interface Inputs {
  githubToken: string
  workingDirectory: string
  bufInput: string
  messages: string[]
  samples: string
  avroSchemas: string
  avroCompatibility: string
  formats: string[]
  baseRef: string
  lint: boolean
  breaking: boolean
  /** thresholds in percent, as the harness flags take them ("5%") */
  sizeThreshold: string
  timeThreshold: string
  throughputThreshold: string
  alpha: number
  count: number
  pipeline: boolean
  pipelineMessages: number
  broker: string
  comment: boolean
}

/** readInputs validates every input; get returns the raw value ('' when unset). */
export function readInputs(get: (name: InputName) => string): Inputs {
  const raw = (name: InputName): string => {
    const v = get(name).trim()
    return v === '' ? INPUT_DEFAULTS[name] : v
  }
  return {
    githubToken: raw('github-token'),
    workingDirectory: raw('working-directory'),
    bufInput: raw('buf-input'),
    messages: parseMessages(raw('messages')),
    samples: raw('samples'),
    avroSchemas: raw('avro-schemas'),
    avroCompatibility: parseAvroLevel(raw('avro-compatibility')),
    formats: parseFormats(raw('formats')),
    baseRef: raw('base-ref'),
    lint: parseBool('lint', raw('lint')),
    breaking: parseBool('breaking', raw('breaking')),
    sizeThreshold: parsePercent('size-threshold', raw('size-threshold')),
    timeThreshold: parsePercent('time-threshold', raw('time-threshold')),
    throughputThreshold: parsePercent('throughput-threshold', raw('throughput-threshold')),
    alpha: parseAlpha(raw('alpha')),
    count: parsePositiveInt('count', raw('count')),
    pipeline: parseBool('pipeline', raw('pipeline')),
    pipelineMessages: parsePositiveInt('pipeline-messages', raw('pipeline-messages')),
    broker: parseBroker(raw('broker')),
    comment: parseBool('comment', raw('comment'))
  }
}

function bad(name: InputName, value: string, want: string): WiregateError {
  return new WiregateError(`input '${name}' is ${JSON.stringify(value)}: want ${want}`)
}

function splitList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map(s => s.trim())
    .filter(s => s !== '')
}

export function parseBool(name: InputName, value: string): boolean {
  if (/^true$/i.test(value)) return true
  if (/^false$/i.test(value)) return false
  throw bad(name, value, 'true or false')
}

/** parsePercent accepts "5%", "5" or "2.5%" and returns the canonical "5%". */
export function parsePercent(name: InputName, value: string): string {
  const m = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value)
  if (!m) throw bad(name, value, 'a non-negative percentage such as 5%')
  return `${Number(m[1])}%`
}

function parseAlpha(value: string): number {
  const n = Number(value)
  if (!/^\d*\.?\d+$/.test(value) || !(n > 0 && n < 1)) throw bad('alpha', value, 'a number between 0 and 1 such as 0.05')
  return n
}

function parsePositiveInt(name: InputName, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw bad(name, value, 'a whole number of at least 1')
  return Number(value)
}

function parseMessages(value: string): string[] {
  const names = splitList(value)
  for (const n of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(n)) {
      throw bad('messages', n, 'fully qualified message names such as telemetry.v1.TelemetryEvent')
    }
  }
  return names
}

function parseFormats(value: string): string[] {
  const formats = splitList(value).map(f => f.toLowerCase())
  if (formats.length === 0) throw bad('formats', value, `one or more of ${KNOWN_FORMATS.join(', ')}`)
  for (const f of formats) {
    if (!(KNOWN_FORMATS as readonly string[]).includes(f)) {
      throw bad('formats', f, `one of ${KNOWN_FORMATS.join(', ')}`)
    }
  }
  return [...new Set(formats)]
}

function parseAvroLevel(value: string): string {
  const level = value.toUpperCase()
  if (!(AVRO_LEVELS as readonly string[]).includes(level)) {
    throw bad('avro-compatibility', value, AVRO_LEVELS.join(', '))
  }
  return level
}

function parseBroker(value: string): string {
  if (['auto', 'redpanda', 'embedded'].includes(value)) return value
  const addrs = splitList(value)
  if (addrs.length > 0 && addrs.every(a => /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(a))) return addrs.join(',')
  throw bad('broker', value, 'auto, redpanda, embedded, or host:port[,host:port…]')
}
