import * as cache from '@actions/cache'
import type { CacheBackend } from './cache.js'

/** actionsCache backs wiregate's cache with GitHub's cache service. The
 * toolkit already turns service errors into a warning and a miss; a runner
 * without the service says so up front. */
export const actionsCache: CacheBackend = {
  restore: async (paths, key, restoreKeys) => {
    if (!cache.isFeatureAvailable()) throw new Error('the cache service is not available on this runner')
    return cache.restoreCache(paths, key, restoreKeys)
  },
  save: async (paths, key) => {
    if (!cache.isFeatureAvailable()) throw new Error('the cache service is not available on this runner')
    return cache.saveCache(paths, key)
  }
}
