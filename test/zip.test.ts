import assert from 'node:assert/strict'
import { test } from 'node:test'
import { onlyEntry } from '../src/zip.js'
import { zipFile } from './zipFile.js'

const REPORT = Buffer.from('{"version":1,"result":"pass"}')
const read = (zip: Buffer, max = 1024): Buffer => onlyEntry(zip, 'report.json', max, 'the artifact')

test('the one report.json, deflated or stored, is read', () => {
  assert.deepEqual(read(zipFile([{ name: 'report.json', data: REPORT }])), REPORT)
  assert.deepEqual(read(zipFile([{ name: 'report.json', data: REPORT, method: 0 }])), REPORT)
})

test('a zip bomb stops at the limit: the header may claim a small size, inflating is what is bounded', () => {
  const bomb = Buffer.alloc(64 << 20)
  assert.throws(() => read(zipFile([{ name: 'report.json', data: bomb, claimedSize: 10 }])), /^WiregateError: the artifact holds a report\.json of more than the limit of 1024 bytes$/)
  assert.throws(() => read(zipFile([{ name: 'report.json', data: bomb }])), /holds a report\.json of 67108864 bytes, more than the limit of 1024/)
})

test('a size that is not the header\'s is refused', () => {
  assert.throws(() => read(zipFile([{ name: 'report.json', data: REPORT, claimedSize: 3 }])), /whose size is not the one its header says/)
})

test('anything but exactly one report.json is refused', () => {
  assert.throws(() => read(zipFile([{ name: 'report.json', data: REPORT }, { name: 'report.md', data: REPORT }])), /holds 2 files; the gate uploads only report\.json/)
  assert.throws(() => read(zipFile([])), /holds 0 files/)
  assert.throws(() => read(zipFile([{ name: '../report.json', data: REPORT }])), /holds a file other than report\.json/)
  assert.throws(() => read(zipFile([{ name: 'report.json', data: REPORT, method: 12 }])), /uses compression method 12; want stored or deflated/)
  assert.throws(() => read(zipFile([{ name: 'report.json', data: REPORT, flags: 1 }])), /is encrypted/)
})

test('what is not a zip, or is cut short, is refused in one line', () => {
  assert.throws(() => read(Buffer.from('{"version":1}')), /^WiregateError: the artifact is not a zip file$/)
  assert.throws(() => read(Buffer.alloc(0)), /is not a zip file/)
  const zip = zipFile([{ name: 'report.json', data: Buffer.alloc(4096, 'a'), method: 0 }])
  const end = zip.subarray(zip.length - 22 - 46 - 11)
  const cut = Buffer.concat([zip.subarray(0, 100), end])
  assert.throws(() => read(cut, 1 << 20), /is cut short|broken/)
  const garbage = Buffer.from(zip)
  garbage.writeUInt32LE(0xdeadbeef, 0)
  assert.throws(() => read(garbage, 1 << 20), /has a broken file header/)
})
