import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  body: string
}

/** A GitHub API stand-in serving the three issue-comment routes the sticky
 * comment uses. deny makes every call answer 403, as a fork PR's token gets. */
export class FakeGitHub {
  comments: FakeComment[] = []
  requests: string[] = []
  deny = false
  private server: Server
  private nextId = 1000

  constructor() {
    this.server = createServer((req, res) => {
      void this.handle(req).then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      })
    })
  }

  async start(): Promise<string> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    await new Promise<void>(resolve => this.server.close(() => resolve()))
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', 'http://x')
    this.requests.push(`${req.method} ${url.pathname}`)
    let raw = ''
    for await (const chunk of req) raw += chunk
    if (this.deny) return [403, { message: 'Resource not accessible by integration' }]
    if (/^\/repos\/o\/r\/issues\/\d+\/comments$/.test(url.pathname)) {
      if (req.method === 'GET') return [200, this.comments]
      if (req.method === 'POST') {
        const c = { id: this.nextId++, body: (JSON.parse(raw) as { body: string }).body }
        this.comments.push(c)
        return [201, c]
      }
    }
    const patch = /^\/repos\/o\/r\/issues\/comments\/(\d+)$/.exec(url.pathname)
    if (patch && req.method === 'PATCH') {
      const c = this.comments.find(x => x.id === Number(patch[1]))
      if (!c) return [404, { message: 'Not Found' }]
      c.body = (JSON.parse(raw) as { body: string }).body
      return [200, c]
    }
    return [404, { message: 'Not Found' }]
  }
}
