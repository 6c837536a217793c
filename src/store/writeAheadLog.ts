import { closeSync, fdatasyncSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import type { BatchOp } from './batchOp.js'

/**
 * A segment is sealed (a new one started) once it holds this much: a segment may hold writes LevelDB
 * has already (the open skips them by sequence number), so there is no need to start one per flush,
 * which cost an open, a close and an unlink each time.
 */
const SEGMENT_BYTES = 4 * 1024 * 1024
/** A record's header: payload length (u32), CRC-32 of the payload (u32), sequence number (u64). */
const HEADER = 16
const PUT = 1
const DEL = 2

/** One write as the log holds it: its sequence number and its ops, their keys and values views of the record's bytes. */
export interface LoggedWrite {
  seq: bigint
  ops: BatchOp[]
}

/**
 * The database's write-ahead log: every write (a block's batch, an edit, a snapshot's record) is
 * appended here with one write(2) before it is answered, so a process killed at any moment (kill -9)
 * keeps it (the kernel holds the file's pages); LevelDB gets the same writes later, several at a time
 * (src/store/database.ts). With `sync`, each append is also fdatasync'd: a power loss keeps it too.
 *
 * The log is a folder of segment files named by a counter. Writes go to the newest; a flush to
 * LevelDB seals it once it is big enough and opens the next (rotate), and once LevelDB holds a
 * flush the segments it sealed are deleted (drop). Each record carries its length, a CRC-32 and its sequence number: a
 * record torn by a crash in the middle of its append is recognised and dropped with everything after
 * it (it was never answered: a write is answered only once its append returned).
 */
export class WriteAheadLog {
  private fd: number
  private segment: number
  /** Bytes in the current segment. */
  private bytes = 0

  private constructor(
    private readonly dir: string,
    first: number,
  ) {
    this.segment = first
    this.fd = openSync(this.path(first), 'a', 0o600)
  }

  /** Opens the log in `dir`, returning it and the writes its segments hold, oldest first (to replay into LevelDB). */
  static open(dir: string): { log: WriteAheadLog; writes: LoggedWrite[]; segments: number[] } {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const segments = readdirSync(dir)
      .filter((name) => /^\d{12}\.log$/.test(name))
      .map((name) => Number(name.slice(0, 12)))
      .sort((a, b) => a - b)
    const writes: LoggedWrite[] = []
    for (const segment of segments) {
      const whole = readSegment(readFileSync(join(dir, segmentName(segment))), writes)
      // A torn record ends the log: nothing written after it was answered.
      if (!whole) break
    }
    const next = segments.length === 0 ? 1 : segments[segments.length - 1]! + 1
    return { log: new WriteAheadLog(dir, next), writes, segments }
  }

  /** Appends one write; `sync`: fdatasync before returning. */
  append(seq: bigint, ops: readonly BatchOp[], sync: boolean): BatchOp[] {
    const { record, views } = encodeRecord(seq, ops)
    let at = 0
    while (at < record.length) at += writeSync(this.fd, record, at, record.length - at)
    this.bytes += record.length
    if (sync) fdatasyncSync(this.fd)
    return views
  }

  /**
   * At the start of a flush (every write so far is about to go to LevelDB): seals the current segment
   * and starts the next when it is big enough; returns the sealed one, or undefined.
   */
  rotate(): number | undefined {
    if (this.bytes < SEGMENT_BYTES) return undefined
    const sealed = this.segment
    closeSync(this.fd)
    this.segment++
    this.bytes = 0
    this.fd = openSync(this.path(this.segment), 'a', 0o600)
    return sealed
  }

  /** Deletes sealed segments: LevelDB holds their writes. */
  drop(segments: readonly number[]): void {
    for (const segment of segments) unlinkSync(this.path(segment))
  }

  /** Closes the log; `empty`: every write is in LevelDB, the current segment goes too. */
  close(empty: boolean): void {
    closeSync(this.fd)
    if (empty) this.drop([this.segment])
  }

  private path(segment: number): string {
    return join(this.dir, segmentName(segment))
  }
}

function segmentName(segment: number): string {
  return `${String(segment).padStart(12, '0')}.log`
}

/** Encodes one write; the ops' keys and values come back as views of the record (copies the caller cannot change). */
function encodeRecord(seq: bigint, ops: readonly BatchOp[]): { record: Buffer; views: BatchOp[] } {
  let size = 0
  for (const op of ops) size += 5 + op.key.length + (op.type === 'put' ? 4 + op.value.length : 0)
  const record = Buffer.allocUnsafeSlow(HEADER + size)
  const views: BatchOp[] = new Array(ops.length)
  let at = HEADER
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!
    record[at] = op.type === 'put' ? PUT : DEL
    record.writeUInt32BE(op.key.length, at + 1)
    at += 5
    record.set(op.key, at)
    const key = record.subarray(at, at + op.key.length)
    at += op.key.length
    if (op.type === 'put') {
      record.writeUInt32BE(op.value.length, at)
      at += 4
      record.set(op.value, at)
      views[i] = { type: 'put', key, value: record.subarray(at, at + op.value.length) }
      at += op.value.length
    } else views[i] = { type: 'del', key }
  }
  record.writeUInt32BE(size, 0)
  record.writeUInt32BE(crc32(record.subarray(HEADER)), 4)
  record.writeBigUInt64BE(seq, 8)
  return { record, views }
}

/** Appends the segment's whole records to `out`; false when it ends in a torn or damaged one. */
function readSegment(bytes: Buffer, out: LoggedWrite[]): boolean {
  let at = 0
  while (at < bytes.length) {
    if (bytes.length - at < HEADER) return false
    const size = bytes.readUInt32BE(at)
    const end = at + HEADER + size
    if (end > bytes.length) return false
    const payload = bytes.subarray(at + HEADER, end)
    if (crc32(payload) !== bytes.readUInt32BE(at + 4)) return false
    out.push({ seq: bytes.readBigUInt64BE(at + 8), ops: decodeOps(payload) })
    at = end
  }
  return true
}

function decodeOps(payload: Buffer): BatchOp[] {
  const ops: BatchOp[] = []
  let at = 0
  while (at < payload.length) {
    const type = payload[at]!
    const keyLength = payload.readUInt32BE(at + 1)
    at += 5
    const key = payload.subarray(at, at + keyLength)
    at += keyLength
    if (type === PUT) {
      const valueLength = payload.readUInt32BE(at)
      at += 4
      ops.push({ type: 'put', key, value: payload.subarray(at, at + valueLength) })
      at += valueLength
    } else ops.push({ type: 'del', key })
  }
  return ops
}
