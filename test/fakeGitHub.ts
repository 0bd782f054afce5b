import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  /** the pull request (issue) it is on */
  issue: number
  body: string
  user: { login: string; type: string }
  html_url?: string
  created_at?: string
  updated_at?: string
}

export interface FakePull {
  number: number
  state: 'open' | 'closed'
  /** owner o is this repository's; any other is a fork's */
  head: { sha: string; ref: string; owner: string }
  /** the base's sha; BASE_SHA when not given */
  baseSha?: string
  /** the base branch; main when not given */
  baseRef?: string
  /** the pull request's author */
  author?: string
  labels?: string[]
  /** the files it changes: the files API lists at most 3,000 of them */
  files?: string[]
  /** changed_files, when not the number of files */
  changedFiles?: number
}

/** A labeled event of a pull request's timeline. */
export interface FakeLabelEvent {
  issue: number
  label: string
  actor: string
  /** the actor's user type; User when not given */
  type?: string
}

/** The base sha of a FakePull that names none: the test fixtures' base. */
export const BASE_SHA = 'a'.repeat(40)

/** A workflow run of a head commit, as the runs list shows it. */
export interface FakeRun {
  id: number
  name: string
  headSha: string
  /** its workflow file; .github/workflows/ci.yml when not given */
  path?: string
}

export interface FakeStatus {
  sha: string
  state: string
  context: string
  description: string
  target_url?: string
}

export interface FakeArtifact {
  id: number
  runId: number
  name: string
  /** the zip as uploaded (blocks committed in block-list order) */
  zip: Buffer
  finalized: boolean
}

const BOT = { login: 'github-actions[bot]', type: 'Bot' }

/** blobSha is git's name for a blob of these bytes. */
function blobSha(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}
const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/'

interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

/** A stand-in, on 127.0.0.1, for the parts of GitHub wiregate talks to:
 * the REST routes of the sticky comment, pull requests, commit statuses and
 * run artifacts (list, zip download through a redirect), and the Actions
 * artifact service an upload uses (the CreateArtifact, FinalizeArtifact,
 * ListArtifacts and DeleteArtifact twirp calls, and the Azure blob
 * Put Block / Put Block List the signed upload URL receives). deny makes
 * every REST call answer 403, as a fork PR's token gets. */
export class FakeGitHub {
  comments: FakeComment[] = []
  pulls: FakePull[] = []
  statuses: FakeStatus[] = []
  artifacts: FakeArtifact[] = []
  runs: FakeRun[] = []
  /** repository permission by login; anyone else is not a collaborator (404) */
  permissions: Record<string, string> = {}
  /** team members by org/team */
  teams: Record<string, string[]> = {}
  /** files of the repository by `${ref}:${path}` (the contents API; the
   * git trees API lists a ref's) */
  contents: Record<string, string> = {}
  /** the git trees API says it cut its listing */
  treeTruncated = false
  /** the git blobs API answers with part of a blob, as a cut read would */
  blobsCut = false
  labelEvents: FakeLabelEvent[] = []
  /** called with each REST request's route once it is answered: a test
   * moves the pull request between two reads */
  afterRequest?: (route: string) => void
  requests: string[] = []
  deny = false
  private server: Server
  private nextId = 1000
  private blocks = new Map<string, Buffer>()
  private base = ''

  constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, body, headers }) => {
          const raw = Buffer.isBuffer(body) ? body : body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body))
          res.writeHead(status, { 'content-type': 'application/json', ...headers })
          res.end(raw)
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ message: String(err) }))
        }
      )
    })
  }

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve))
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this.base
  }

  async stop(): Promise<void> {
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  /** addComment is a comment a person writes on a pull request. */
  addComment(issue: number, login: string, body: string, type = 'User'): FakeComment {
    const id = this.nextId++
    const at = new Date(Date.UTC(2026, 10, 24, 12, 0, id % 60)).toISOString()
    const c: FakeComment = { id, issue, body, user: { login, type }, html_url: `https://github.com/o/r/pull/${issue}#issuecomment-${id}`, created_at: at, updated_at: at }
    this.comments.push(c)
    return c
  }

  /** commentsOn lists the comments on one pull request. */
  commentsOn(issue: number): FakeComment[] {
    return this.comments.filter(c => c.issue === issue)
  }

  private async handle(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://x')
    const route = `${req.method} ${url.pathname}`
    this.requests.push(route)
    try {
      return await this.route(req, url)
    } finally {
      this.afterRequest?.(route)
    }
  }

  private async route(req: IncomingMessage, url: URL): Promise<Reply> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks)
    if (url.pathname.startsWith(TWIRP)) return this.twirp(url.pathname.slice(TWIRP.length), JSON.parse(raw.toString('utf8')) as Record<string, string>)
    if (url.pathname.startsWith('/blobs/')) return this.blob(req.method ?? '', url, raw)
    if (this.deny) return { status: 403, body: { message: 'Resource not accessible by integration' } }
    const json = (): Record<string, string> => JSON.parse(raw.toString('utf8')) as Record<string, string>
    let m: RegExpExecArray | null
    if (url.pathname === '/user') return { status: 403, body: { message: 'Resource not accessible by integration' } }
    if ((m = /^\/repos\/o\/r\/issues\/(\d+)\/comments$/.exec(url.pathname))) {
      const issue = Number(m[1])
      if (req.method === 'GET') return { status: 200, body: this.commentsOn(issue) }
      if (req.method === 'POST') {
        const id = this.nextId++
        const at = new Date().toISOString()
        const c = { id, issue, body: json().body!, user: BOT, html_url: `https://github.com/o/r/pull/${issue}#issuecomment-${id}`, created_at: at, updated_at: at }
        this.comments.push(c)
        return { status: 201, body: c }
      }
    }
    if ((m = /^\/repos\/o\/r\/issues\/comments\/(\d+)$/.exec(url.pathname)) && req.method === 'PATCH') {
      const c = this.comments.find(x => x.id === Number(m![1]))
      if (!c) return { status: 404, body: { message: 'Not Found' } }
      c.body = json().body!
      return { status: 200, body: c }
    }
    if (url.pathname === '/repos/o/r/pulls' && req.method === 'GET') {
      const head = url.searchParams.get('head')
      const state = url.searchParams.get('state') ?? 'open'
      const pulls = this.pulls.filter(p => (head === null || `${p.head.owner}:${p.head.ref}` === head) && (state === 'all' || p.state === state))
      return { status: 200, body: pulls.map(p => this.restPull(p)) }
    }
    if ((m = /^\/repos\/o\/r\/pulls\/(\d+)$/.exec(url.pathname)) && req.method === 'GET') {
      const p = this.pulls.find(x => x.number === Number(m![1]))
      if (!p) return { status: 404, body: { message: 'Not Found' } }
      return { status: 200, body: this.restPull(p) }
    }
    if ((m = /^\/repos\/o\/r\/pulls\/(\d+)\/files$/.exec(url.pathname)) && req.method === 'GET') {
      const p = this.pulls.find(x => x.number === Number(m![1]))
      if (!p) return { status: 404, body: { message: 'Not Found' } }
      return { status: 200, body: (p.files ?? []).slice(0, 3000).map(filename => ({ filename, status: 'modified' })) }
    }
    if ((m = /^\/repos\/o\/r\/issues\/(\d+)\/timeline$/.exec(url.pathname)) && req.method === 'GET') {
      const issue = Number(m[1])
      return { status: 200, body: this.labelEvents.filter(e => e.issue === issue).map(e => ({ event: 'labeled', actor: { login: e.actor, type: e.type ?? 'User' }, label: { name: e.label } })) }
    }
    if ((m = /^\/repos\/o\/r\/git\/trees\/([^/]+)$/.exec(url.pathname)) && req.method === 'GET') {
      const prefix = `${m[1]}:`
      const tree = Object.keys(this.contents).filter(k => k.startsWith(prefix)).map(k => ({ path: k.slice(prefix.length), type: 'blob' }))
      return { status: 200, body: { sha: m[1], tree, truncated: this.treeTruncated } }
    }
    if ((m = /^\/repos\/o\/r\/contents\/(.+)$/.exec(url.pathname)) && req.method === 'GET') {
      const path = decodeURIComponent(m[1]!)
      const text = this.contents[`${url.searchParams.get('ref')}:${path}`]
      if (text === undefined) return { status: 404, body: { message: 'Not Found' } }
      const bytes = Buffer.from(text)
      // GitHub answers a file over 1 MB without its content.
      const content = bytes.length > 1 << 20 ? { encoding: 'none', content: '' } : { encoding: 'base64', content: bytes.toString('base64') }
      return { status: 200, body: { type: 'file', path, size: bytes.length, sha: blobSha(bytes), ...content } }
    }
    if ((m = /^\/repos\/o\/r\/git\/blobs\/([0-9a-f]{40})$/.exec(url.pathname)) && req.method === 'GET') {
      const text = Object.values(this.contents).find(t => blobSha(Buffer.from(t)) === m![1])
      if (text === undefined) return { status: 404, body: { message: 'Not Found' } }
      const bytes = Buffer.from(text)
      const sent = this.blobsCut ? bytes.subarray(0, bytes.length >> 1) : bytes
      return { status: 200, body: { sha: m[1], size: bytes.length, encoding: 'base64', content: sent.toString('base64') } }
    }
    if ((m = /^\/repos\/o\/r\/commits\/([0-9a-f]+)\/statuses$/.exec(url.pathname)) && req.method === 'GET') {
      const sha = m[1]
      return { status: 200, body: this.statuses.filter(x => x.sha === sha).reverse().map((x, i) => ({ id: i + 1, state: x.state, context: x.context, description: x.description })) }
    }
    if ((m = /^\/repos\/o\/r\/collaborators\/([^/]+)\/permission$/.exec(url.pathname)) && req.method === 'GET') {
      const permission = this.permissions[decodeURIComponent(m[1]!)]
      if (!permission) return { status: 404, body: { message: 'Not Found' } }
      return { status: 200, body: { permission, role_name: permission, user: { login: m[1] } } }
    }
    if ((m = /^\/orgs\/([^/]+)\/teams\/([^/]+)\/memberships\/([^/]+)$/.exec(url.pathname)) && req.method === 'GET') {
      if (!(this.teams[`${m[1]}/${m[2]}`] ?? []).includes(decodeURIComponent(m[3]!))) return { status: 404, body: { message: 'Not Found' } }
      return { status: 200, body: { state: 'active', role: 'member' } }
    }
    if (url.pathname === '/repos/o/r/actions/runs' && req.method === 'GET') {
      const sha = url.searchParams.get('head_sha')
      const runs = this.runs.filter(r => sha === null || r.headSha === sha).sort((a, b) => b.id - a.id)
      return { status: 200, body: { total_count: runs.length, workflow_runs: runs.map(r => ({ id: r.id, name: r.name, path: r.path ?? '.github/workflows/ci.yml', head_sha: r.headSha, html_url: `https://github.com/o/r/actions/runs/${r.id}` })) } }
    }
    if ((m = /^\/repos\/o\/r\/statuses\/([0-9a-f]+)$/.exec(url.pathname)) && req.method === 'POST') {
      const s = json()
      this.statuses.push({ sha: m[1]!, state: s.state!, context: s.context!, description: s.description!, target_url: s.target_url })
      return { status: 201, body: { id: this.nextId++, ...s } }
    }
    if ((m = /^\/repos\/o\/r\/actions\/runs\/(\d+)\/artifacts$/.exec(url.pathname)) && req.method === 'GET') {
      const name = url.searchParams.get('name')
      const list = this.artifacts.filter(a => a.finalized && a.runId === Number(m![1]) && (name === null || a.name === name))
      return { status: 200, body: { total_count: list.length, artifacts: list.map(a => this.restArtifact(a)) } }
    }
    if ((m = /^\/repos\/o\/r\/actions\/artifacts\/(\d+)\/zip$/.exec(url.pathname)) && req.method === 'GET') {
      const a = this.artifacts.find(x => x.id === Number(m![1]) && x.finalized)
      if (!a) return { status: 404, body: { message: 'Not Found' } }
      return { status: 302, headers: { location: `${this.base}/blobs/download/${a.id}?sig=signed` } }
    }
    return { status: 404, body: { message: 'Not Found' } }
  }

  private restPull(p: FakePull): Record<string, unknown> {
    return {
      number: p.number,
      state: p.state,
      head: { sha: p.head.sha, ref: p.head.ref, label: `${p.head.owner}:${p.head.ref}`, repo: { full_name: `${p.head.owner}/r` } },
      base: { sha: p.baseSha ?? BASE_SHA, ref: p.baseRef ?? 'main', repo: { full_name: 'o/r' } },
      user: { login: p.author ?? 'someone' },
      labels: (p.labels ?? []).map(name => ({ name })),
      changed_files: p.changedFiles ?? (p.files ?? []).length
    }
  }

  private restArtifact(a: FakeArtifact): Record<string, unknown> {
    return { id: a.id, name: a.name, size_in_bytes: a.zip.length, digest: `sha256:${createHash('sha256').update(a.zip).digest('hex')}`, created_at: new Date().toISOString() }
  }

  private twirp(method: string, body: Record<string, string>): Reply {
    const runId = Number(body.workflow_run_backend_id)
    const named = (a: FakeArtifact): boolean => a.runId === runId && a.name === body.name
    switch (method) {
      case 'CreateArtifact': {
        if (this.artifacts.some(named)) return { status: 409, body: { code: 'already_exists', msg: 'an artifact with this name already exists on the workflow run' } }
        const a: FakeArtifact = { id: this.nextId++, runId, name: body.name!, zip: Buffer.alloc(0), finalized: false }
        this.artifacts.push(a)
        return { status: 200, body: { ok: true, signed_upload_url: `${this.base}/blobs/upload/${a.id}?sig=signed` } }
      }
      case 'FinalizeArtifact': {
        const a = this.artifacts.find(named)
        if (!a || Number(body.size) !== a.zip.length) return { status: 400, body: { code: 'invalid_argument', msg: 'no such upload, or a size that is not the blob\'s' } }
        a.finalized = true
        return { status: 200, body: { ok: true, artifact_id: String(a.id) } }
      }
      case 'ListArtifacts': {
        const name = (body as unknown as { name_filter?: string }).name_filter
        const list = this.artifacts.filter(a => a.finalized && a.runId === runId && (name === undefined || a.name === name))
        return {
          status: 200,
          body: { artifacts: list.map(a => ({ workflow_run_backend_id: String(a.runId), workflow_job_run_backend_id: 'job', database_id: String(a.id), name: a.name, size: String(a.zip.length) })) }
        }
      }
      case 'DeleteArtifact': {
        const a = this.artifacts.find(named)
        if (!a) return { status: 404, body: { code: 'not_found', msg: 'artifact not found' } }
        this.artifacts = this.artifacts.filter(x => x !== a)
        return { status: 200, body: { ok: true, artifact_id: String(a.id) } }
      }
    }
    return { status: 404, body: { code: 'bad_route', msg: method } }
  }

  /** blob stands in for Azure blob storage behind the signed URLs. */
  private blob(method: string, url: URL, raw: Buffer): Reply {
    const upload = /^\/blobs\/upload\/(\d+)$/.exec(url.pathname)
    if (upload && method === 'PUT') {
      const a = this.artifacts.find(x => x.id === Number(upload[1]))
      if (!a) return { status: 404 }
      const comp = url.searchParams.get('comp')
      if (comp === 'block') {
        this.blocks.set(`${a.id}/${url.searchParams.get('blockid')}`, raw)
      } else if (comp === 'blocklist') {
        const ids = [...raw.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map(x => x[1]!)
        a.zip = Buffer.concat(ids.map(id => this.blocks.get(`${a.id}/${id}`) ?? Buffer.alloc(0)))
      } else {
        a.zip = raw
      }
      return { status: 201, headers: { etag: '"0x1"', 'last-modified': new Date().toUTCString(), 'x-ms-request-server-encrypted': 'true' } }
    }
    const download = /^\/blobs\/download\/(\d+)$/.exec(url.pathname)
    if (download && method === 'GET') {
      const a = this.artifacts.find(x => x.id === Number(download[1]))
      if (!a) return { status: 404 }
      return { status: 200, body: a.zip, headers: { 'content-type': 'application/zip' } }
    }
    return { status: 404 }
  }
}
