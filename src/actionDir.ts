import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** actionDir is the action's root: the bundle runs from <root>/dist/*.js. */
export function actionDir(moduleUrl: string): string {
  return dirname(dirname(fileURLToPath(moduleUrl)))
}
