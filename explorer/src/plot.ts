/** The home page's plot: gas used (bars, left scale) and base fee (line, right scale) of the last blocks. */
import { h, svg } from './dom.js'
import { big, grouped, gwei, num } from './format.js'

const W = 640
const H = 200
const PAD = { left: 64, right: 78, top: 14, bottom: 30 }

/** `blocks` newest first, as the home page holds them. */
export function gasPlot(blocks: readonly any[]): HTMLElement {
  const series = [...blocks].reverse()
  const title = 'Gas used and base fee per block'
  if (series.length === 0) return h('p', { class: 'note' }, 'No blocks yet.')
  const gas = series.map((b) => num(b.gasUsed))
  const fee = series.map((b) => big(b.baseFeePerGas))
  const maxGas = Math.max(1, ...gas)
  const maxFee = fee.reduce((m, f) => (f > m ? f : m), 1n)
  const minFee = fee.reduce((m, f) => (f < m ? f : m), maxFee)
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const step = plotW / series.length
  const bars = series.map((b, i) => {
    const bh = (gas[i]! / maxGas) * plotH
    return svg(
      'rect',
      { class: 'bar', x: (PAD.left + i * step + step * 0.15).toFixed(1), y: (PAD.top + plotH - bh).toFixed(1), width: (step * 0.7).toFixed(1), height: bh.toFixed(1) },
      svg('title', {}, `block ${num(b.number)}: ${grouped(gas[i]!)} gas, base fee ${gwei(fee[i]!)}`),
    )
  })
  // The base fee line spans its own range (a flat fee sits mid-height).
  const span = maxFee - minFee
  const feeY = (f: bigint) => (span === 0n ? PAD.top + plotH / 2 : PAD.top + plotH - (Number(f - minFee) / Number(span)) * plotH * 0.9 - plotH * 0.05)
  const points = fee.map((f, i) => `${(PAD.left + i * step + step / 2).toFixed(1)},${feeY(f).toFixed(1)}`).join(' ')
  const first = num(series[0].number)
  const last = num(series[series.length - 1].number)
  const desc = `Blocks ${first} to ${last}: gas used up to ${grouped(maxGas)}; base fee from ${gwei(minFee)} to ${gwei(maxFee)}.`
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'plot-title plot-desc', class: 'plot', preserveAspectRatio: 'xMidYMid meet' },
    svg('title', { id: 'plot-title' }, title),
    svg('desc', { id: 'plot-desc' }, desc),
    svg('line', { class: 'axis', x1: PAD.left, y1: PAD.top + plotH, x2: W - PAD.right, y2: PAD.top + plotH }),
    svg('text', { class: 'tick', x: PAD.left - 6, y: PAD.top + 10, 'text-anchor': 'end' }, grouped(maxGas)),
    svg('text', { class: 'tick', x: PAD.left - 6, y: PAD.top + plotH, 'text-anchor': 'end' }, '0'),
    svg('text', { class: 'tick gas', x: 4, y: PAD.top + plotH / 2 }, 'gas'),
    svg('text', { class: 'tick fee', x: W - PAD.right + 6, y: PAD.top + 10 }, gwei(maxFee)),
    svg('text', { class: 'tick fee', x: W - PAD.right + 6, y: PAD.top + plotH }, gwei(minFee)),
    svg('text', { class: 'tick', x: PAD.left, y: H - 8 }, `#${first}`),
    svg('text', { class: 'tick', x: W - PAD.right, y: H - 8, 'text-anchor': 'end' }, `#${last}`),
    ...bars,
    svg('polyline', { class: 'fee-line', points, fill: 'none' }),
  )
  return h('figure', { class: 'plot-figure' }, chart, h('figcaption', {}, h('span', { class: 'key key-gas' }, 'Gas used'), ' ', h('span', { class: 'key key-fee' }, 'Base fee'), ` · ${desc}`))
}
