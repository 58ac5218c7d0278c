// The run's vision switch: frames a loop passes to callRole become image parts on the role's request only when it
// is on; off (or no frames) the messages are the rendered ones, unchanged. In LLaMAR episodes, in-process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withImages } from '../../../../src/core/engine/vision.js';
import type { ModelRequest } from '../../../../src/core/llm/client.js';
import { createHouseholdSimulator } from '../../../../src/core/sim/household/index.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import type { ChatMessage } from '../../../../src/protocol/trace.js';
import { policyClient, runLlamar } from '../../architectures/llamar/helpers.js';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const frame = { camera: 'egocentric', agent: 'Alice', mediaType: 'image/png' as const, dataBase64: PNG_1x1, width: 1, height: 1 };

/** The household with a frame on every agent's view (the embedded one has no camera). */
function withCamera(): Simulator {
  const sim = createHouseholdSimulator();
  const observe = sim.observe.bind(sim);
  sim.observe = async (agent?: string) => ({ ...(await observe(agent)), ...(agent ? { images: [{ ...frame, agent }] } : {}) });
  return sim;
}

async function episode(sim: Simulator, vision: boolean): Promise<ModelRequest[]> {
  const model = policyClient();
  await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, limits: { maxSteps: 2 }, model, sim, vision });
  return model.requests;
}

describe('vision switch', () => {
  it('off, or on without frames, sends the same messages as a run with frames and vision off', async () => {
    const plain = await episode(createHouseholdSimulator(), false);
    assert.ok(plain.length > 0);
    assert.deepEqual((await episode(withCamera(), false)).map((r) => r.messages), plain.map((r) => r.messages));
    assert.deepEqual((await episode(createHouseholdSimulator(), true)).map((r) => r.messages), plain.map((r) => r.messages));
  });

  it('on with frames: each request message carries every robot\'s frame after its unchanged text', async () => {
    const plain = await episode(createHouseholdSimulator(), false);
    const seen = await episode(withCamera(), true);
    assert.equal(seen.length, plain.length);
    for (const [i, r] of seen.entries()) {
      const withParts = r.messages.filter((m) => m.parts);
      assert.equal(withParts.length, 1);
      const m = withParts[0]!;
      const before = plain[i]!.messages[r.messages.indexOf(m)]!;
      assert.deepEqual(m.parts!.map((p) => (p.type === 'image' ? `${p.alt}` : p.text)), [before.content, "Alice's egocentric camera, 1x1 PNG", "Bob's egocentric camera, 1x1 PNG"]);
      assert.equal(m.content, `${before.content}\n\n[image: Alice's egocentric camera, 1x1 PNG]\n[image: Bob's egocentric camera, 1x1 PNG]`);
      // Every other message is as rendered.
      assert.deepEqual(r.messages.filter((x) => x !== m), plain[i]!.messages.filter((_, k) => k !== r.messages.indexOf(m)));
    }
  });

  it('puts the frames on the request, not on a later history message (a retry\'s feedback)', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'request' },
      { role: 'assistant', content: 'bad answer' },
      { role: 'user', content: 'That answer cannot be used' },
    ];
    const out = withImages(messages, [frame], true, 1);
    assert.ok(out[1]!.parts && !out[3]!.parts);
    assert.equal(withImages(messages, [frame], false, 1), messages);
    assert.equal(withImages(messages, [], true, 1), messages);
    // Without a known request index: the last user message.
    assert.ok(withImages(messages, [frame], true)[3]!.parts);
  });
});
