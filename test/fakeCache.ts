import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A stand-in on 127.0.0.1 for GitHub's cache service (v2): the three twirp
 * calls @actions/cache makes, and the blob store its signed URLs point at
 * (one PUT to upload, GETs to download). fail makes every twirp call fail
 * with failStatus. */
export class FakeCache {
  /** committed entries: key → archive bytes */
  entries = new Map<string, { version: string; blob: Buffer }>()
  calls: string[] = []
  fail = false
  /** 500 by default; the toolkit retries a 5xx for about half a minute
   * before it gives up, and a 429 (rate limited) not at all */
  failStatus = 500
  private pending = new Map<string, { key: string; version: string; blob?: Buffer; blocks: Map<string, Buffer> }>()
  private server: Server
  private url = ''

  constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req, res)
    })
  }

  /** start returns the value for ACTIONS_RESULTS_URL. */
  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`
    return this.url
  }

  async stop(): Promise<void> {
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    const url = new URL(req.url ?? '/', 'http://x')
    const twirp = /\/twirp\/github\.actions\.results\.api\.v1\.CacheService\/(\w+)$/.exec(url.pathname)
    if (twirp) {
      this.calls.push(twirp[1]!)
      if (this.fail) return json(res, this.failStatus, { code: this.failStatus === 429 ? 'resource_exhausted' : 'internal', msg: 'the stand-in was told to fail' })
      const r = JSON.parse(body.toString('utf8') || '{}') as { key: string; version: string; restoreKeys?: string[]; restore_keys?: string[] }
      switch (twirp[1]) {
        case 'GetCacheEntryDownloadURL': {
          const hit = this.lookup(r.key, r.restoreKeys ?? r.restore_keys ?? [], r.version)
          if (!hit) return json(res, 200, { ok: false })
          return json(res, 200, { ok: true, signedDownloadUrl: `${this.url}blob/${encodeURIComponent(hit)}`, matchedKey: hit })
        }
        case 'CreateCacheEntry': {
          if (this.entries.has(r.key)) return json(res, 409, { code: 'already_exists', msg: 'cache entry exists' })
          const id = String(this.pending.size + this.entries.size + 1)
          this.pending.set(id, { key: r.key, version: r.version, blocks: new Map() })
          return json(res, 200, { ok: true, signedUploadUrl: `${this.url}devstoreaccount1/cache/${id}?sig=stand-in` })
        }
        case 'FinalizeCacheEntryUpload': {
          const p = [...this.pending.entries()].find(([, v]) => v.key === r.key && v.blob)
          if (!p) return json(res, 404, { code: 'not_found', msg: 'nothing uploaded for this key' })
          this.entries.set(p[1].key, { version: p[1].version, blob: p[1].blob! })
          this.pending.delete(p[0])
          return json(res, 200, { ok: true, entryId: p[0] })
        }
      }
      return json(res, 404, { code: 'not_found', msg: twirp[1] })
    }
    const upload = /^\/devstoreaccount1\/cache\/(\d+)$/.exec(url.pathname)
    if (upload && req.method === 'PUT') {
      // Azure's block blob API, as the SDK uses it: one PUT for a small
      // archive; PUT ?comp=block per block, then PUT ?comp=blocklist.
      const p = this.pending.get(upload[1]!)
      if (!p) return json(res, 404, {})
      const comp = url.searchParams.get('comp')
      if (comp === 'block') p.blocks.set(url.searchParams.get('blockid') ?? '', body)
      else if (comp === 'blocklist') {
        const ids = [...body.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map(m => m[1]!)
        p.blob = Buffer.concat(ids.map(id => p.blocks.get(id) ?? Buffer.alloc(0)))
      } else p.blob = body
      res.writeHead(201, { etag: '"1"' })
      return void res.end()
    }
    const download = /^\/blob\/(.+)$/.exec(url.pathname)
    if (download && (req.method === 'GET' || req.method === 'HEAD')) {
      const e = this.entries.get(decodeURIComponent(download[1]!))
      if (!e) return json(res, 404, {})
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': e.blob.length })
      return void res.end(req.method === 'GET' ? e.blob : undefined)
    }
    json(res, 404, {})
  }

  /** lookup finds the exact key, else the newest entry starting with a restore key. */
  private lookup(key: string, restoreKeys: string[], version: string): string | undefined {
    if (this.entries.get(key)?.version === version) return key
    for (const prefix of restoreKeys) {
      const found = [...this.entries.keys()].reverse().find(k => k.startsWith(prefix) && this.entries.get(k)!.version === version)
      if (found) return found
    }
    return undefined
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}
