// The labels of Action Contextualization's dining table (the paper's), shared by its Franka-class and iiwa scenes.
export const AC_LABELS = {
  paper1: 'crumpled paper ball 1',
  paper2: 'crumpled paper ball 2',
  apple: 'whole apple',
  eaten: 'half-eaten apple',
  empty: 'empty glass 1',
  full: 'glass with yellowish liquid',
  bin: 'large red trash can',
  sink: 'large white sink',
  shelf: 'storage shelf',
  lamp: 'overhead lamp',
} as const;
