import { request } from 'node:http'

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A raw HTTP request to 127.0.0.1: the path goes out byte for byte (fetch would normalise `..`
 * and `//`), with `connection: close`. POST to /ext/bc/C/rpc unless told otherwise.
 */
export function rawHttp(port: number, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/ext/bc/C/rpc',
        headers: { connection: 'close', ...opts.headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          body += c
        })
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}
