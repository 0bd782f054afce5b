import { inflateRawSync } from 'node:zlib'
import { WiregateError } from './errors.js'

// A reader for the one-file zip a gating job uploads. The zip was written by
// a PR's code, so it is read from memory, its central directory is checked
// before any byte is inflated, and inflating stops at the size limit (a zip
// bomb costs at most that much memory, and never touches the disk).

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const STORED = 0
const DEFLATED = 8

/** onlyEntry returns the content of the zip's one entry, which must be
 * named name and hold at most maxBytes. what names the zip in errors. */
export function onlyEntry(zip: Buffer, name: string, maxBytes: number, what: string): Buffer {
  const bad = (why: string): never => {
    throw new WiregateError(`${what} ${why}`)
  }
  const end = findEnd(zip) ?? bad('is not a zip file')
  const entries = zip.readUInt16LE(end + 10)
  const cdOffset = zip.readUInt32LE(end + 16)
  if (entries !== 1) bad(`holds ${entries} files; the gate uploads only ${name}`)
  if (cdOffset + 46 > zip.length || zip.readUInt32LE(cdOffset) !== CENTRAL) bad('has a broken central directory')
  const flags = zip.readUInt16LE(cdOffset + 8)
  const method = zip.readUInt16LE(cdOffset + 10)
  const compressed = zip.readUInt32LE(cdOffset + 20)
  const size = zip.readUInt32LE(cdOffset + 24)
  const nameLength = zip.readUInt16LE(cdOffset + 28)
  const localOffset = zip.readUInt32LE(cdOffset + 42)
  const entryName = zip.subarray(cdOffset + 46, cdOffset + 46 + nameLength).toString('utf8')
  if (entryName !== name) bad(`holds a file other than ${name}`)
  if (flags & 1) bad('is encrypted')
  if (size > maxBytes) bad(`holds a ${name} of ${size} bytes, more than the limit of ${maxBytes}`)
  if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== LOCAL) bad('has a broken file header')
  const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28)
  if (start + compressed > zip.length) bad('is cut short')
  const data = zip.subarray(start, start + compressed)
  let content: Buffer
  if (method === STORED) content = data
  else if (method === DEFLATED) {
    try {
      // The header's size may lie: the limit is on what inflates, not on what it says.
      content = inflateRawSync(data, { maxOutputLength: maxBytes })
    } catch (err) {
      const tooBig = err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      return bad(tooBig ? `holds a ${name} of more than the limit of ${maxBytes} bytes` : `holds a ${name} that does not inflate`)
    }
  } else return bad(`uses compression method ${method}; want stored or deflated`)
  if (content.length !== size) bad(`holds a ${name} whose size is not the one its header says`)
  return content
}

/** findEnd finds the end-of-central-directory record, which may be followed
 * by a comment of up to 64 KiB. */
function findEnd(zip: Buffer): number | undefined {
  for (let i = zip.length - 22; i >= 0 && i >= zip.length - 22 - 0xffff; i--) {
    if (zip.readUInt32LE(i) === EOCD) return i
  }
  return undefined
}
