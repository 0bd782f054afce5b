import { deflateRawSync } from 'node:zlib'

export interface ZipEntry {
  name: string
  data: Buffer
  /** 0 stored, 8 deflated (default) */
  method?: number
  /** what the headers say the inflated size is (default: the truth) */
  claimedSize?: number
  flags?: number
}

/** zipFile writes a zip with the given entries (no CRCs: the reader under
 * test does not check them), so a test can forge what a hostile artifact
 * could hold: lying sizes, extra files, odd methods. */
export function zipFile(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const method = e.method ?? 8
    const body = method === 8 ? deflateRawSync(e.data) : e.data
    const name = Buffer.from(e.name, 'utf8')
    const size = e.claimedSize ?? e.data.length
    const flags = e.flags ?? 0
    // version, flags, method, time, date, crc, compressed size, size, name length, extra length
    const fields = [u16(20), u16(flags), u16(method), u16(0), u16(0), u32(0), u32(body.length), u32(size), u16(name.length), u16(0)]
    const local = Buffer.concat([u32(0x04034b50), ...fields])
    // … then comment length, disk, internal and external attributes, local header offset
    const central = Buffer.concat([u32(0x02014b50), u16(20), ...fields, u16(0), u16(0), u16(0), u32(0), u32(offset)])
    locals.push(local, name, body)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const cd = Buffer.concat(centrals)
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(cd.length), u32(offset), u16(0)])
  return Buffer.concat([...locals, cd, end])
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(n)
  return b
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n)
  return b
}
