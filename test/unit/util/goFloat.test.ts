import { describe, expect, it } from 'vitest'
import { goFixed6 } from '../../../src/util/goFloat.js'

describe("goFixed6: Go's %f", () => {
  it('prints six decimals as fmt.Sprintf("%f") does', () => {
    expect(goFixed6(75)).toBe('75.000000')
    expect(goFixed6(25)).toBe('25.000000')
    expect(goFixed6(-0.5)).toBe('-0.500000')
    expect(goFixed6(0.1)).toBe('0.100000')
    expect(goFixed6(123.4567895)).toBe('123.456789')
  })

  it('rounds exact ties to even, where toFixed rounds up', () => {
    // 1/128 = 0.0078125 exactly: Go prints 0.007812.
    expect(goFixed6(1 / 128)).toBe('0.007812')
    expect(goFixed6(3 / 128)).toBe('0.023438')
  })

  it('keeps the sign of -0 and writes every integer digit of large values', () => {
    expect(goFixed6(-0)).toBe('-0.000000')
    expect(goFixed6(1e25)).toBe('10000000000000000905969664.000000')
    expect(goFixed6(5e-324)).toBe('0.000000')
  })
})
