/** Bytes as bare lowercase hex, and back. */
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
export const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'))
