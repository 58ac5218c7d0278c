// Observation images over the simulator protocol: a frame passes through the remote client as sent; a malformed one
// (wrong media type, not base64, bytes of another format) fails the call with an error naming the field, and an
// episode that meets one ends as simulator_error with that message in its trace, nothing else failing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHouseholdSimulator } from '../../../../../src/core/sim/household/index.js';
import { createInProcessTransportPair, RemoteSimulator } from '../../../../../src/core/sim/remote/index.js';
import type { MessageTransport } from '../../../../../src/core/sim/remote/transport.js';
import { serveSimulator } from '../../../../../src/core/sim/serve/index.js';
import { runLlamar } from '../../../architectures/llamar/helpers.js';

// A 1x1 PNG (the smallest valid one) and the first bytes of a JPEG.
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const JPEG_HEAD = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA==';

/**
 * The embedded household served in-process, with every observe answer's `images` set by `images(agent)` on the
 * way to the client (the server checks its own answers, so a malformed frame has to be put in after it).
 */
async function householdWithImages(images: (agent: string | undefined) => unknown[]): Promise<RemoteSimulator> {
  const [client, clientPeer] = createInProcessTransportPair();
  const [serverPeer, server] = createInProcessTransportPair();
  serveSimulator(createHouseholdSimulator(), server, { snapshots: 'id' });
  const pending = new Map<unknown, string | undefined>();
  clientPeer.onMessage((text) => {
    const m = JSON.parse(text) as { id?: unknown; method?: string; params?: { agent?: string } };
    if (m.method === 'observe') pending.set(m.id, m.params?.agent);
    serverPeer.send(text);
  });
  serverPeer.onMessage((text) => {
    const m = JSON.parse(text) as { id?: unknown; result?: Record<string, unknown> };
    if (pending.has(m.id) && m.result) {
      m.result.images = images(pending.get(m.id));
      pending.delete(m.id);
      return clientPeer.send(JSON.stringify(m));
    }
    clientPeer.send(text);
  });
  return RemoteSimulator.over(client as MessageTransport);
}

describe('observation images over the protocol', () => {
  it('a valid frame passes through as sent', async () => {
    const frame = { camera: 'egocentric', agent: 'Alice', mediaType: 'image/png', dataBase64: PNG_1x1, width: 1, height: 1 };
    const sim = await householdWithImages((agent) => (agent ? [{ ...frame, agent }] : []));
    try {
      await sim.reset('put_bread_lettuce_tomato_fridge', 0, { api: 'llamar', agents: 2 });
      assert.deepEqual((await sim.observe('Bob')).images, [{ ...frame, agent: 'Bob' }]);
    } finally {
      await sim.close();
    }
  });

  for (const [what, image, expected] of [
    ['a media type outside PNG and JPEG', { camera: 'c', mediaType: 'image/gif', dataBase64: PNG_1x1 }, /invalid observe result: images\.0\.mediaType: /],
    ['data that is not base64', { camera: 'c', mediaType: 'image/png', dataBase64: 'not base64!' }, /invalid observe result: images\.0\.dataBase64: is not standard base64/],
    ['JPEG bytes declared as PNG', { camera: 'c', mediaType: 'image/png', dataBase64: JPEG_HEAD }, /invalid observe result: images\.0\.dataBase64: does not hold image\/png data \(its first bytes do not match\)/],
    ['no camera name', { mediaType: 'image/png', dataBase64: PNG_1x1 }, /invalid observe result: images\.0\.camera: /],
  ] as const) {
    it(`${what} fails observe naming the field`, async () => {
      const sim = await householdWithImages(() => [image]);
      try {
        await sim.reset('put_bread_lettuce_tomato_fridge', 0, { api: 'llamar', agents: 2 });
        await assert.rejects(sim.observe('Alice'), expected);
        // The connection survives: the next call answers.
        assert.equal((await sim.check()).success, false);
      } finally {
        await sim.close();
      }
    });
  }

  it('an episode that meets a malformed frame ends simulator_error with the field in its trace', async () => {
    const sim = await householdWithImages((agent) => (agent === 'Bob' ? [{ camera: 'egocentric', agent, mediaType: 'image/jpeg', dataBase64: PNG_1x1 }] : []));
    try {
      const { result, events } = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, sim, vision: true });
      assert.equal(result.reason, 'simulator_error');
      const end = events.at(-1)!;
      assert.ok(end.type === 'episode_end');
      assert.match(JSON.stringify(end), /simulator failed during observe: simulator '[^']+' sent an invalid observe result: images\.0\.dataBase64: does not hold image\/jpeg data/);
    } finally {
      await sim.close();
    }
  });
});
