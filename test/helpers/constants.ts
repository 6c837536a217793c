/*
 * The local network's well-known values, written out as a client sees them (avalanchego:
 * genesis/genesis_local.json, utils/constants/network_ids.go): the tests compare the node's answers
 * with these literals rather than with what src/ derives.
 */

import pkg from '../../package.json' with { type: 'json' }

/** The pre-funded ewoq key of the local genesis, as 0x hex and as avalanchego prints it. */
export const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'
export const EWOQ_PRIVATE_KEY = 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'
/** ewoq's EVM address (checksummed). */
export const EWOQ_ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC'
/** ewoq's 20-byte short address (hex, ripemd160(sha256(pubkey))) and its bech32 forms on the local network. */
export const EWOQ_SHORT = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'
export const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'
export const EWOQ_P = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'
export const EWOQ_C = 'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'

/** The local network's chain IDs and AVAX asset ID (CB58). */
export const LOCAL_C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC'
export const LOCAL_X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed'
/** 32 zero bytes: the empty ID, and the P-Chain's ID on every network. */
export const EMPTY_ID = '11111111111111111111111111111111LpoYY'
export const LOCAL_P = EMPTY_ID
export const AVAX = '2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe'

/** nAVAX per AVAX. */
export const NANO = 1_000_000_000n

/** The node's own web3_clientVersion, geth-style (name/version/os-arch/runtime): its whole answer where the development controls are off. */
export const PLAIN_CLIENT_VERSION = `cchain-node/v${pkg.version}/${process.platform}-${process.arch}/node${process.versions.node}`
