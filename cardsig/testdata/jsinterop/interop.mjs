// Cross-checks Go's cardsig package against @a2a-js/sdk's card signing.
//
//   node interop.mjs verify <card.json> <jwks.json>
//       Verifies the card with verifyAgentCardSignature, looking the key up
//       by kid in the JWKS file. Prints {"ok":true} or {"ok":false,"error":...}.
//   node interop.mjs sign <card.json> <signed-card-out.json> <jwks-out.json> <kid> [jku]
//       Generates an ES256 key, signs the card with generateAgentCardSignature
//       and writes the signed card and the public JWKS. Prints {"ok":true}.
import { readFileSync, writeFileSync } from 'node:fs';
import * as jose from 'jose';
import { generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';

// The SDK logs each failed signature entry with console.debug, which goes to
// stdout; keep stdout for the one JSON result line.
console.debug = (...args) => console.error(...args);

const readJSON = (path) => JSON.parse(readFileSync(path, 'utf8'));

async function verify(cardPath, jwksPath) {
  const card = readJSON(cardPath);
  const jwks = readJSON(jwksPath);
  const verifier = verifyAgentCardSignature(async (kid) => {
    const matches = (jwks.keys ?? []).filter((k) => k.kid === kid);
    if (matches.length !== 1) {
      throw new Error(`expected one key with kid ${kid}, found ${matches.length}`);
    }
    return jose.importJWK(matches[0], matches[0].alg);
  });
  try {
    await verifier(card);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: String(err?.message ?? err) };
  }
}

async function sign(cardPath, outCard, outJWKS, kid, jku) {
  const card = readJSON(cardPath);
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const header = { alg: 'ES256', typ: 'JOSE', kid };
  if (jku) header.jku = jku;
  const signed = await generateAgentCardSignature(privateKey, header)(card);
  writeFileSync(outCard, JSON.stringify(signed));
  writeFileSync(outJWKS, JSON.stringify({ keys: [jwk] }));
  return { ok: true };
}

const [cmd, ...args] = process.argv.slice(2);
let result;
if (cmd === 'verify' && args.length === 2) {
  result = await verify(...args);
} else if (cmd === 'sign' && (args.length === 4 || args.length === 5)) {
  result = await sign(...args);
} else {
  console.error('usage: interop.mjs verify <card> <jwks> | sign <card> <out-card> <out-jwks> <kid> [jku]');
  process.exit(2);
}
process.stdout.write(JSON.stringify(result) + '\n');
