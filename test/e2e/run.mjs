#!/usr/bin/env node
// Entry of `npm run test:e2e` (see test/e2e/harness.ts): loads the TypeScript harness through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./harness.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  console.error(`e2e: ${e instanceof Error ? e.message : String(e)}`);
  console.log('e2e: 0 passed, 1 failed');
  process.exitCode = 1;
}
