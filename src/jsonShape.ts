import { WiregateError } from './errors.js'

interface ScalarType {
  string: string
  number: number
  int: number
  bool: boolean
}
type Scalar = keyof ScalarType

/** A JSON object whose fields are read one by one, each checked for its type.
 * The error names the file and the field's path, never the value: the value
 * may come from an artifact a fork PR wrote, and an error line goes to the
 * log, the commit status and the comment. */
export class Fields {
  constructor(
    private readonly file: string,
    private readonly path: string,
    private readonly o: Record<string, unknown>,
    private readonly read?: Set<string>
  ) {}

  /** of reads v as an object. read, when given, collects the path of every
   * field asked for (list items as []), present or not: what a parser
   * reads, so a test can hold it against a report that has every field. */
  static of(file: string, path: string, v: unknown, read?: Set<string>): Fields {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(file, path, 'an object')
    return new Fields(file, path, v as Record<string, unknown>, read)
  }

  private at(key: string): string {
    return this.path ? `${this.path}.${key}` : key
  }

  /** where names a field for an error line: "report.json: violations[2].kind". */
  where(key: string): string {
    return `${this.file}: ${this.at(key)}`
  }

  private raw(key: string): unknown {
    this.read?.add(this.at(key).replace(/\[\d+\]/g, '[]'))
    return Object.hasOwn(this.o, key) ? this.o[key] : undefined
  }

  has(key: string): boolean {
    const v = this.raw(key)
    return v !== undefined && v !== null
  }

  string(key: string): string {
    const v = this.raw(key)
    if (typeof v !== 'string') fail(this.file, this.at(key), 'a string')
    return v
  }

  number(key: string): number {
    const v = this.raw(key)
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(this.file, this.at(key), 'a number')
    return v
  }

  int(key: string): number {
    const v = this.number(key)
    if (!Number.isInteger(v)) fail(this.file, this.at(key), 'an integer')
    return v
  }

  bool(key: string): boolean {
    const v = this.raw(key)
    if (typeof v !== 'boolean') fail(this.file, this.at(key), 'true or false')
    return v
  }

  /** optional reads a field that may be absent: undefined then (null too:
   * Go writes a nil pointer as null). */
  optional<K extends Scalar>(key: string, kind: K): ScalarType[K] | undefined {
    return this.has(key) ? this.scalar(key, kind) : undefined
  }

  /** nullable reads a field the contract writes as null when unknown. */
  nullable<K extends Scalar>(key: string, kind: K): ScalarType[K] | null {
    return this.has(key) ? this.scalar(key, kind) : null
  }

  private scalar<K extends Scalar>(key: string, kind: K): ScalarType[K] {
    const read: { [S in Scalar]: (key: string) => ScalarType[S] } = {
      string: k => this.string(k),
      number: k => this.number(k),
      int: k => this.int(k),
      bool: k => this.bool(k)
    }
    return read[kind](key)
  }

  object(key: string): Fields {
    return Fields.of(this.file, this.at(key), this.raw(key), this.read)
  }

  /** list reads an array of items; absent or null is empty (Go writes a nil
   * slice as null). */
  list<T>(key: string, item: (f: Fields) => T): T[] {
    const v = this.raw(key)
    if (v === undefined || v === null) return []
    if (!Array.isArray(v)) fail(this.file, this.at(key), 'a list')
    return v.map((x, i) => item(Fields.of(this.file, `${this.at(key)}[${i}]`, x, this.read)))
  }

  /** numbersOrNull reads a list of numbers where null marks a gap. */
  numbersOrNull(key: string): Array<number | null> {
    const v = this.raw(key)
    if (v === undefined || v === null) return []
    if (!Array.isArray(v) || !v.every(x => x === null || (typeof x === 'number' && Number.isFinite(x)))) fail(this.file, this.at(key), 'a list of numbers')
    return v as Array<number | null>
  }

  strings(key: string): string[] {
    const v = this.raw(key)
    if (v === undefined || v === null) return []
    if (!Array.isArray(v) || !v.every(x => typeof x === 'string')) fail(this.file, this.at(key), 'a list of strings')
    return v
  }
}

function fail(file: string, path: string, want: string): never {
  throw new WiregateError(`${file}: ${path || 'the top level'} is not ${want}`)
}

/** defined drops the keys whose value is undefined, so a parsed object has
 * exactly the fields its JSON had. */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}
