import { posix } from 'node:path'
import type { Finding } from './report.js'

/** One line of `buf lint|breaking --error-format=json`. */
export interface BufAnnotation {
  path: string
  start_line?: number
  start_column?: number
  end_line?: number
  end_column?: number
  type: string
  message: string
}

/** parseBufOutput reads buf's JSON lines; a line that is not JSON is returned
 * in `other` (buf printed an error of its own). */
export function parseBufOutput(stdout: string): { annotations: BufAnnotation[]; other: string[] } {
  const annotations: BufAnnotation[] = []
  const other: string[] = []
  for (const line of stdout.split('\n').map(l => l.trim()).filter(l => l !== '')) {
    try {
      const a = JSON.parse(line) as BufAnnotation
      if (typeof a === 'object' && a !== null && typeof a.type === 'string') annotations.push(a)
      else other.push(line)
    } catch {
      other.push(line)
    }
  }
  return { annotations, other }
}

/** compileError is the one-line error for a schema that does not compile, or
 * undefined when every annotation is a real finding. */
export function compileError(annotations: BufAnnotation[], fileRoot: string): string | undefined {
  const c = annotations.find(a => a.type === 'COMPILE')
  if (!c) return undefined
  const where = [repoPath(fileRoot, c.path), c.start_line, c.start_column].filter(x => x !== undefined && x !== 0).join(':')
  return `${where}: ${c.message} (the schema does not compile; fix it and push again)`
}

/** toFindings maps buf annotations to report findings with repo-relative files. */
export function toFindings(kind: 'lint' | 'breaking', annotations: BufAnnotation[], fileRoot: string): Finding[] {
  return annotations.map(a => ({
    kind,
    file: repoPath(fileRoot, a.path),
    line: a.start_line || undefined,
    column: a.start_column || undefined,
    rule: a.type,
    message: a.message
  }))
}

/** repoPath joins buf's input-relative path to where the input sits in the repo. */
export function repoPath(fileRoot: string, path: string): string {
  if (!path) return fileRoot === '' ? '.' : fileRoot
  return posix.normalize(posix.join(fileRoot || '.', path))
}
