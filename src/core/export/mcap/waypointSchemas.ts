// JSON Schemas of Waypoint's own MCAP channels (where no Foxglove schema fits). Flat numeric fields, so every
// number can be plotted by path (e.g. /metrics/motion.m_t) in Foxglove's Plot panel.
const time = { type: 'object', properties: { sec: { type: 'integer', minimum: 0 }, nsec: { type: 'integer', minimum: 0, maximum: 999999999 } }, required: ['sec', 'nsec'] };

export const WAYPOINT_SCHEMAS = {
  RobotState: {
    title: 'waypoint.RobotState',
    description: 'End effector pose (world frame, metres, yaw about +z in radians), gripper opening and held object of the first arm, and the contact pairs at this sample.',
    type: 'object',
    properties: {
      timestamp: time,
      ee: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' }, yaw_rad: { type: 'number' } }, required: ['x', 'y', 'z', 'yaw_rad'] },
      gripper_width_m: { type: 'number' },
      grasped: { type: 'string', description: 'held object, empty when none' },
      contacts: { type: 'array', items: { type: 'string' } },
    },
    required: ['timestamp', 'ee', 'gripper_width_m', 'grasped', 'contacts'],
  },
  ApiCall: {
    title: 'waypoint.ApiCall',
    description: 'One robot API call made by the generated code.',
    type: 'object',
    properties: {
      timestamp: time,
      turn: { type: 'integer' },
      fn: { type: 'string' },
      args_json: { type: 'string' },
      ok: { type: 'boolean' },
      error: { type: 'string' },
      value_json: { type: 'string', description: 'the returned value as JSON, empty when none' },
    },
    required: ['timestamp', 'turn', 'fn', 'args_json', 'ok', 'error', 'value_json'],
  },
  Check: {
    title: 'waypoint.Check',
    description: 'A check verdict recorded in the trace (collision, success, parse, IK, ...).',
    type: 'object',
    properties: { timestamp: time, turn: { type: 'integer' }, name: { type: 'string' }, ok: { type: 'boolean' }, message: { type: 'string' } },
    required: ['timestamp', 'turn', 'name', 'ok', 'message'],
  },
  MotionMetrics: {
    title: 'waypoint.MotionMetrics',
    description: 'Motion scores of one action, stamped at its end: M_I (min inverse Jacobian condition number), M_E (normalised min clearance), M_T = M_I + M_E (-2 when the action did not move).',
    type: 'object',
    properties: {
      timestamp: time,
      turn: { type: 'integer' },
      action: { type: 'string' },
      m_i: { type: 'number' },
      m_e: { type: 'number' },
      m_t: { type: 'number' },
      duration_s: { type: 'number' },
      path_length_m: { type: 'number' },
      peak_jerk_mps3: { type: 'number' },
      min_clearance_m: { type: 'number' },
      closest_pair: { type: 'string' },
      collisions: { type: 'integer' },
      max_held_tilt_rad: { type: 'number' },
    },
    required: ['timestamp', 'turn', 'action', 'm_i', 'm_e', 'm_t', 'duration_s', 'path_length_m', 'peak_jerk_mps3', 'min_clearance_m', 'closest_pair', 'collisions', 'max_held_tilt_rad'],
  },
} as const;
