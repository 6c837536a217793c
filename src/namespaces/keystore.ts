import { z } from 'zod'
import { decodeBytes, encodeBytes } from '../avalanche/encoding.js'
import type { Keystore } from '../keystore/keystore.js'
import { EncodingArg } from '../rpc/avalancheArgs.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { GoString } from '../rpc/gorilla.js'
import { withContext } from '../rpc/errors.js'
import { type MethodTable, method } from '../rpc/types.js'
import { keystoreCaller } from './keystoreCaller.js'

/** What replaces the keystore API (avalanchego removed it): keys held and used by the client. */
export const KEYSTORE_REPLACEMENT = 'keep keys in the client (e.g. an AvalancheJS wallet), sign there and send with avax.issueTx / eth_sendRawTransaction'

/** api.UserPass. */
const UserPass = z.object({ username: GoString, password: GoString })

/**
 * The `keystore` service of /ext/keystore (avalanchego v1.12.1: api/keystore/service.go). Params are
 * never logged (passwords); each method warns once that it is deprecated. The keystore's errors
 * answer with their own text (-32005 when the client is throttled, docs/SECURITY.md K5).
 */
export function keystoreMethods(ctx: { keystore: Keystore; deprecated: DeprecationWarner }): MethodTable {
  const { keystore } = ctx
  const warn = (name: string) => ctx.deprecated(name, KEYSTORE_REPLACEMENT)
  return {
    /** Handler for `keystore.createUser {username, password}` -> `{}`. */
    'keystore.createUser': method(UserPass, async ({ username, password }) => {
      warn('keystore.createUser')
      await keystore.createUser(username, password)
      return {}
    }),
    /** Handler for `keystore.deleteUser {username, password}` -> `{}`. */
    'keystore.deleteUser': method(UserPass, async ({ username, password }, _call, origin) => {
      warn('keystore.deleteUser')
      await keystore.deleteUser(username, password, keystoreCaller(origin))
      return {}
    }),
    /** Handler for `keystore.listUsers` -> `{users}` (byte-sorted). */
    'keystore.listUsers': method(z.object({}), async () => {
      warn('keystore.listUsers')
      return { users: await keystore.listUsers() }
    }),
    /** Handler for `keystore.importUser {username, password, user, encoding}` -> `{}`. */
    'keystore.importUser': method(UserPass.extend({ user: GoString, encoding: EncodingArg }), async ({ username, password, user, encoding }, _call, origin) => {
      warn('keystore.importUser')
      const bytes = withContext("couldn't decode 'user' to bytes: ", () => decodeBytes(encoding, user))
      await keystore.importUser(username, password, bytes, keystoreCaller(origin))
      return {}
    }),
    /** Handler for `keystore.exportUser {username, password, encoding}` -> `{user, encoding}`. */
    'keystore.exportUser': method(UserPass.extend({ encoding: EncodingArg }), async ({ username, password, encoding }, _call, origin) => {
      warn('keystore.exportUser')
      const bytes = await keystore.exportUser(username, password, keystoreCaller(origin))
      return { user: withContext("couldn't encode user to string: ", () => encodeBytes(encoding, bytes)), encoding }
    }),
  }
}
