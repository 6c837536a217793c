// Compiles a standard-JSON input (stdin) with the solc-js in argv[2], every source handed over by
// the import callback: solc-js copies its input string onto the wasm stack, which a big project's
// input (OpenZeppelin's, 2 MB) overflows ("memory access out of bounds").
const { readFileSync } = require('node:fs')
const solc = require(require.resolve('solc', { paths: [process.argv[2]] }))
const input = JSON.parse(readFileSync(0, 'utf8'))
const contents = {}
for (const [name, source] of Object.entries(input.sources)) {
  contents[name] = source.content
  input.sources[name] = { urls: [name] }
}
const read = (name) => (name in contents ? { contents: contents[name] } : { error: `not found: ${name}` })
process.stdout.write(solc.compile(JSON.stringify(input), { import: read }))
