// What an episode does depends on the code that runs it, not only on its settings: a sweep's episode key carries
// this number so that finished episodes of an older engine are not taken for results of this one.
//
// BUMP IT (by one, in the same commit) when a change can alter what an episode does or how it ends with the same
// settings: the episode loop (src/core/engine), an architecture's loop, parser, observation rendering or limits
// (src/architectures), the reference model's policies (src/core/llm/reference), the embedded simulators' physics,
// tasks or success checks (src/core/sim), or the sandbox's semantics. Do not bump it for changes that only
// show or export traces (views, reports, exporters, the CLI's printing): those never change an outcome.
// Bumping makes every sweep run all its episodes again on its next invocation (old records stay on disk, uncounted).
export const ENGINE_BEHAVIOUR_VERSION = 1;
