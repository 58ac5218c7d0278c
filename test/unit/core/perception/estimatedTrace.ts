// A recorded MALMM trace as perception mode would have written it: the committed pick-and-place fixture with every
// observation passed through the real PerceptionModel (the engine does the same, src/core/engine/episode.ts), and
// one observation whose blue block is hidden, so a drop-out is always in it.
import { PerceptionModel } from '../../../../src/core/perception/estimator.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { loadFixture } from '../trace/projections/helpers.js';

export function estimatedFixture(seed = 3): TraceEvent[] {
  const model = new PerceptionModel(seed);
  let forced = false;
  return loadFixture('malmm-pick-place.jsonl').events.map((e) => {
    if (e.type === 'episode_start') return { ...e, options: { ...e.options, perception: 'estimated' } };
    if (e.type !== 'observation') return e;
    const { state, notes } = model.estimate(e.state);
    if (!forced && state.objects.some((o) => o.name === 'blue block')) {
      forced = true;
      return { ...e, estimate: { ...state, objects: state.objects.filter((o) => o.name !== 'blue block') }, perception: notes.map((n) => (n.name === 'blue block' ? { name: n.name, dropped: 'occluded' as const } : n)) };
    }
    return { ...e, estimate: state, perception: notes };
  });
}
