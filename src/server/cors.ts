import { createOriginCheck } from './hostCheck.js'

/** Methods a cross-origin request may use (rs/cors v1.7.0 defaults, as avalanchego configures it: api/server/server.go); OPTIONS always. */
const METHODS = new Set(['GET', 'POST', 'HEAD', 'OPTIONS'])
/** Request headers a preflight may ask for (rs/cors v1.7.0's defaults), canonical. */
const HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With'])
/** How long a browser may cache a preflight (avalanchego sends none; one here spares a dev page a preflight per call). */
const MAX_AGE = '600'

export type HeaderPairs = readonly (readonly [string, string])[]

const NONE: HeaderPairs = []
const VARY: HeaderPairs = [['vary', 'Origin']]
const PREFLIGHT_VARY = ['vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers'] as const

/**
 * CORS for the routes a browser wallet or dApp calls (docs/SECURITY.md, N3): avalanchego's rule
 * (rs/cors around every route: api/server/server.go wrapHandler) with this node's origin list:
 * loopback origins and `--http-allowed-origins` (createOriginCheck), the origin echoed (`*` only when
 * `*` is configured, as rs/cors answers then), and never credentials.
 */
export interface Cors {
  /** Headers for an actual request's answer: none without an Origin; only `Vary` for an origin not allowed or a method rs/cors refuses. */
  actual(origin: string | undefined, method: string): HeaderPairs
  /**
   * Headers for a preflight (OPTIONS with Access-Control-Request-Method), answered 200 with no body as
   * rs/cors does: the allow headers only when the origin, the method and every requested header pass.
   */
  preflight(origin: string | undefined, method: string, requestHeaders: string | undefined): HeaderPairs
}

/** Go's http.CanonicalHeaderKey after rs/cors's parseHeaderList: `content-type` -> `Content-Type`; characters other than letters, digits, `-`, `_` dropped. */
export function parseHeaderList(list: string): string[] {
  const out: string[] = []
  for (const part of list.split(/[ ,]/)) {
    let h = ''
    let upper = true
    for (const c of part) {
      if (/[A-Za-z]/.test(c)) h += upper ? c.toUpperCase() : c.toLowerCase()
      else if (/[-_0-9]/.test(c)) h += c
      upper = c === '-' || c === '_'
    }
    if (h !== '') out.push(h)
  }
  return out
}

export function createCors(allowedOrigins: readonly string[] = []): Cors {
  const originAllowed = createOriginCheck(allowedOrigins)
  const any = allowedOrigins.includes('*')
  const allowOrigin = (origin: string): string => (any ? '*' : origin)
  return {
    actual(origin, method) {
      if (origin === undefined) return NONE
      if (!originAllowed(origin) || !METHODS.has(method.toUpperCase())) return VARY
      return [
        ['access-control-allow-origin', allowOrigin(origin)],
        ['vary', 'Origin'],
      ]
    },
    preflight(origin, method, requestHeaders) {
      const vary: HeaderPairs = [PREFLIGHT_VARY]
      if (origin === undefined || !originAllowed(origin) || !METHODS.has(method.toUpperCase())) return vary
      const headers = parseHeaderList(requestHeaders ?? '')
      if (!headers.every((h) => HEADERS.has(h))) return vary
      const out: [string, string][] = [[...PREFLIGHT_VARY], ['access-control-allow-origin', allowOrigin(origin)], ['access-control-allow-methods', method.toUpperCase()]]
      if (headers.length > 0) out.push(['access-control-allow-headers', headers.join(', ')])
      out.push(['access-control-max-age', MAX_AGE])
      return out
    },
  }
}
