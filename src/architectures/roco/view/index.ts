// RoCo's part of the run viewer (listed in src/architectures/views.ts): the Rounds tab, which keeps the run's
// events and draws the dialog rounds while it is shown.
import type { ArchitectureView } from '../../../../webview/runViewer/extraTabs.js';
import { RoundsTab } from './roundsTab.js';

export const rocoView: ArchitectureView = {
  id: 'roco',
  projections: [],
  create(host) {
    const tab = new RoundsTab(host.selectTurn);
    return {
      tabs: [
        {
          id: 'rounds',
          label: 'Rounds',
          root: tab.root,
          applies: () => tab.hasRounds,
          // It renders itself when shown and changed.
          update: () => {},
          reset: (events) => tab.reset(events),
          append: (events) => tab.append(events),
          show: () => tab.show(),
          hide: () => tab.hide(),
        },
      ],
    };
  },
};
