import { z } from 'zod'
import { decodeBytes, encodeBytes, parseEncoding } from '../avalanche/encoding.js'
import type { Encoding } from '../avalanche/encoding.js'
import { KeystoreError } from '../keystore/errors.js'
import type { Keystore } from '../keystore/keystore.js'
import type { DeprecationWarner } from '../rpc/deprecation.js'
import { APIError, GoString } from '../rpc/gorilla.js'
import { keystoreErrorCode } from '../rpc/errors.js'
import type { MethodTable, RequestOrigin } from '../rpc/types.js'
import { method } from '../rpc/types.js'

/** What replaces the keystore API (avalanchego removed it): keys held and used by the client. */
export const KEYSTORE_REPLACEMENT = 'keep keys in the client (e.g. an AvalancheJS wallet), sign there and send with avax.issueTx / eth_sendRawTransaction'

/** api.UserPass. */
const UserPass = z.object({ username: GoString, password: GoString })
/** formatting.Encoding's UnmarshalJSON: null/absent = hex, else one of hex, hexc, hexnc, json (any case). */
const EncodingArg = z.string().nullish().transform((v, tctx): Encoding => {
  try {
    return parseEncoding(v)
  } catch {
    tctx.addIssue({ code: 'custom', message: 'invalid encoding' })
    return z.NEVER
  }
})

/** Keystore failures carry their own text; anything else is an internal error (logged, not sent). */
async function asAPIError<T>(run: () => Promise<T>, prefix = ''): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof KeystoreError) throw new APIError(prefix + err.message, keystoreErrorCode(err))
    throw err
  }
}

/** Error text of a formatting failure. */
function formatMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * The `keystore` service of /ext/keystore (avalanchego api/keystore/service.go, AVALANCHE.md 10). Params
 * are never logged (STYLE.md 8); each method warns once that it is deprecated.
 */
export function keystoreMethods(ctx: { keystore: Keystore; deprecated: DeprecationWarner }): MethodTable {
  const { keystore } = ctx
  const warn = (name: string) => ctx.deprecated(name, KEYSTORE_REPLACEMENT)
  const caller = (origin: RequestOrigin | undefined) => (origin === undefined ? {} : { client: origin.remoteAddress })
  return {
    /** Handler for `keystore.createUser {username, password}` -> `{}`. */
    'keystore.createUser': method(UserPass, async ({ username, password }) => {
      warn('keystore.createUser')
      await asAPIError(() => keystore.createUser(username, password))
      return {}
    }),
    /** Handler for `keystore.deleteUser {username, password}` -> `{}`. */
    'keystore.deleteUser': method(UserPass, async ({ username, password }, _call, origin) => {
      warn('keystore.deleteUser')
      await asAPIError(() => keystore.deleteUser(username, password, caller(origin)))
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
      let bytes: Uint8Array
      try {
        bytes = decodeBytes(encoding, user)
      } catch (err) {
        throw new APIError(`couldn't decode 'user' to bytes: ${formatMessage(err)}`)
      }
      await asAPIError(() => keystore.importUser(username, password, bytes, caller(origin)))
      return {}
    }),
    /** Handler for `keystore.exportUser {username, password, encoding}` -> `{user, encoding}`. */
    'keystore.exportUser': method(UserPass.extend({ encoding: EncodingArg }), async ({ username, password, encoding }, _call, origin) => {
      warn('keystore.exportUser')
      const bytes = await asAPIError(() => keystore.exportUser(username, password, caller(origin)))
      let user: string
      try {
        user = encodeBytes(encoding, bytes)
      } catch (err) {
        throw new APIError(`couldn't encode user to string: ${formatMessage(err)}`)
      }
      return { user, encoding }
    }),
  }
}
