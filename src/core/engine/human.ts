// A person in an agent's seat (RoCo's real-world setting, where a human plays Alice): the engine asks the seat
// for that agent's turns instead of the model. Hosts implement it: the CLI reads the terminal, the extension an
// input box. The trace marks those turns (`role_call.human`, `model_response.human`).
import type { ChatMessage } from '../../protocol/trace.js';

export interface HumanTurn {
  agent: string;
  role: string;
  turn: number;
  round?: number;
  /** What the person needs to answer, as the architecture chose to show it (observation, feedback, the chat so far). */
  view: string;
  /** The prompt a model in this seat would have received. */
  messages: ChatMessage[];
}

export interface HumanSeat {
  /** Agents whose turns a person types. */
  readonly agents: readonly string[];
  /** The person's answer; null when they gave up (the episode is cancelled). */
  ask(turn: HumanTurn, signal: AbortSignal): Promise<string | null>;
}
