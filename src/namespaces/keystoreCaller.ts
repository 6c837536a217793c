import type { KeystoreCaller } from '../keystore/keystore.js'
import type { RequestOrigin } from '../rpc/types.js'

/** Who calls a keystore-backed method: the client address the keystore's back-off counts failures by (docs/SECURITY.md, K5). */
export function keystoreCaller(origin: RequestOrigin | undefined): KeystoreCaller {
  return origin === undefined ? {} : { client: origin.remoteAddress }
}
