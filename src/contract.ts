// What the action says when a file the harness wrote breaks its contract
// (its JSON Schema, generated from the Go types): one line naming the
// field's path and what it is not, never the value — the file may be an
// artifact a pull request's code wrote, and the line goes to the log, the
// commit status and the comment.
import type { ErrorObject } from 'ajv/dist/2020.js'

/** breach says in a few words where a file breaks the contract: the
 * field's path ("violations[0].kind") and what it is not. */
export function breach(e: ErrorObject | undefined): string {
  if (!e) return 'does not match the contract'
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map(k => k.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((p, k) => (/^\d+$/.test(k) ? `${p}[${k}]` : p ? `${p}.${k}` : k), '')
  const at = path || 'the top level'
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'type':
      return `${at} is not ${typeWords(p.type)}`
    case 'enum':
      return `${at} is not one of the contract's words`
    case 'required':
      return `${path ? `${path}.` : ''}${String(p.missingProperty)} is missing`
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String(p.additionalProperty)} is not in the contract`
    case 'minimum':
    case 'maximum':
      return `${at} is not ${String(p.comparison)} ${String(p.limit)}`
    default:
      return `${at} does not match the contract`
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null'
}

function typeWords(t: unknown): string {
  const types = Array.isArray(t) ? t : [t]
  return types.map(x => TYPE_WORDS[String(x)] ?? String(x)).join(' or ')
}

/** notJSON is the one line for a file that is not JSON: where, from the
 * parser's message, which itself would quote the input. */
export function notJSON(source: string, err: unknown): string {
  const at = /position (\d+)/.exec(err instanceof Error ? err.message : '')?.[1]
  return `${source} is not valid JSON${at ? ` (at byte ${at})` : ''}`
}
