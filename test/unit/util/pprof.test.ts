import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { Profile } from 'pprof-format'
import { cpuProfileToPprof, heapProfileToPprof } from '../../../src/util/pprof.js'

const frame = (functionName: string, lineNumber = 0) => ({ functionName, scriptId: '1', url: 'file:///app.js', lineNumber, columnNumber: 0 })

/** The decoded profile's samples as `leaf<-caller` function-name stacks with their values. */
function stacks(bytes: Uint8Array): { types: string[]; samples: Record<string, number[]> } {
  const p = Profile.decode(gunzipSync(bytes))
  const str = (i: number | bigint) => p.stringTable.strings[Number(i)]!
  const fn = new Map(p.function.map((f) => [Number(f.id), str(f.name)]))
  const loc = new Map(p.location.map((l) => [Number(l.id), l.line.map((ln) => fn.get(Number(ln.functionId))!).join('/')]))
  const samples: Record<string, number[]> = {}
  for (const s of p.sample) samples[s.locationId.map((id) => loc.get(Number(id))).join('<-')] = s.value.map(Number)
  return { types: p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`), samples }
}

describe('cpuProfileToPprof', () => {
  it("one sample per hit node: its stack leaf first without V8's (root), its hits and the summed time deltas in ns", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4] },
        { id: 2, callFrame: frame('main', 3), children: [3] },
        { id: 3, callFrame: frame(''), children: [] },
        { id: 4, callFrame: frame('(idle)'), children: [] },
      ],
      startTime: 1000,
      endTime: 5000,
      samples: [3, 3, 4, 2],
      timeDeltas: [100, 200, 300, 400],
    }
    const out = stacks(cpuProfileToPprof(profile, 1000, new Date(0)))
    expect(out.types).toEqual(['samples/count', 'cpu/nanoseconds'])
    expect(out.samples).toEqual({ '(anonymous)<-main': [2, 300_000], '(idle)': [1, 300_000], main: [1, 400_000] })
    const p = Profile.decode(gunzipSync(cpuProfileToPprof(profile, 1000, new Date(5))))
    expect([Number(p.period), Number(p.durationNanos), Number(p.timeNanos)]).toEqual([1_000_000, 4_000_000, 5_000_000])
  })
})

describe('heapProfileToPprof', () => {
  it('one sample per node holding live bytes: inuse_objects from the sample list, inuse_space its self size', () => {
    const profile = {
      head: {
        callFrame: frame('(root)'),
        selfSize: 0,
        id: 1,
        children: [{ callFrame: frame('alloc'), selfSize: 1024, id: 2, children: [{ callFrame: frame('inner'), selfSize: 2048, id: 3, children: [] }] }],
      },
      samples: [
        { size: 10, nodeId: 2, ordinal: 1 },
        { size: 10, nodeId: 3, ordinal: 2 },
        { size: 10, nodeId: 3, ordinal: 3 },
      ],
    }
    const out = stacks(heapProfileToPprof(profile, 524288, new Date(0)))
    expect(out.types).toEqual(['inuse_objects/count', 'inuse_space/bytes'])
    expect(out.samples).toEqual({ alloc: [1, 1024], 'inner<-alloc': [2, 2048] })
  })
})
