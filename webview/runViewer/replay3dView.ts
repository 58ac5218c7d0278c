// The 3D replay's three.js side: renderer, camera with orbit/zoom/pan (three's OrbitControls, z-up), lights,
// the bodies from the recorded geometry, the end-effector path (dim ahead, bright behind the playhead),
// commanded waypoints and collision markers. Renders on demand (a pose, camera or size change), never in a
// loop. Imported lazily by replay3dTab.ts, so three.js is evaluated only when the 3D tab first opens.
import {
  Box3, DirectionalLight, HemisphereLight, PCFShadowMap, PerspectiveCamera, Scene, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Scene3dBuilder } from '../../src/core/trace/projections/scene3d.js';
import type { TrajectorySeriesBuilder } from '../../src/core/trace/projections/trajectorySeries.js';
import { cssColor, ReplayMarkers } from './replay3dMarkers.js';
import { buildBodies, disposeBodies, type BodyObjects } from './replay3dScene.js';

/**
 * Software renderers (no GPU, or GPU blocklisted): a frame with shadows at full size takes ~0.1-0.3 s there, so
 * shadows go off and frames during playback and orbiting are drawn at half resolution.
 */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render/i;

export interface ReplayData {
  scene3d: Scene3dBuilder;
  series: TrajectorySeriesBuilder;
}

export interface ReplayStats {
  geomMeshes: number;
  bodies: number;
  waypointMarkers: number;
  collisionMarkers: number;
  pathPoints: number;
  renders: number;
}

export class Replay3dView {
  readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(40, 1, 0.01, 50);
  private readonly controls: OrbitControls;
  private bodies: BodyObjects[] = [];
  private sceneRef: unknown;
  private readonly markers: ReplayMarkers;
  private drawnVersions = { scene: -1, series: -1 };
  private sample = -1;
  private frame = 0;
  private fitted = false;
  private readonly resize: ResizeObserver;
  private readonly themeWatch: MutationObserver;
  private readonly pose = new Float64Array(7);
  private readonly sun: DirectionalLight;
  renders = 0;
  /** 'reduced' on a software renderer (see SOFTWARE_GL). */
  readonly quality: 'full' | 'reduced';
  /** The GL renderer's name, when the browser tells it. */
  readonly glRenderer: string;
  private basePixelRatio = 1;
  private interactive = { playing: false, orbiting: false };

  constructor(private readonly host: HTMLElement, private data: ReplayData, onLost: (why: string) => void) {
    // Throws when WebGL is unavailable; the tab shows the fallback message.
    this.renderer = new WebGLRenderer({ antialias: true });
    this.basePixelRatio = Math.min(2, window.devicePixelRatio || 1);
    this.renderer.setPixelRatio(this.basePixelRatio);
    const gl = this.renderer.getContext();
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    this.glRenderer = String((info && gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) || gl.getParameter(gl.RENDERER) || '');
    this.quality = SOFTWARE_GL.test(this.glRenderer) ? 'reduced' : 'full';
    this.renderer.shadowMap.enabled = this.quality === 'full';
    this.renderer.shadowMap.type = PCFShadowMap;
    const canvas = this.renderer.domElement;
    canvas.classList.add('replay3d-canvas');
    canvas.setAttribute('aria-label', '3D replay of the scene; drag to orbit, right-drag or shift-drag to pan, wheel to zoom');
    canvas.addEventListener('webglcontextlost', (e) => {
      e.preventDefault();
      onLost('the WebGL context was lost (the GPU process restarted or too many WebGL views are open)');
    });
    host.appendChild(canvas);

    this.camera.up.set(0, 0, 1);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.addEventListener('start', () => this.setInteractive({ orbiting: true }));
    this.controls.addEventListener('end', () => this.setInteractive({ orbiting: false }));

    const hemi = new HemisphereLight(0xffffff, 0x444444, 1.6);
    hemi.position.set(0, 0, 1);
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    sun.shadow.bias = -0.0005;
    // Curved links (capsules) self-shadow in stripes without a normal offset.
    sun.shadow.normalBias = 0.01;
    this.sun = sun;
    this.placeSun(new Vector3(0, 0, 0.7), 1.2);
    this.scene.add(hemi, sun, sun.target);

    this.markers = new ReplayMarkers(this.scene);

    this.applyTheme();
    this.themeWatch = new MutationObserver(() => {
      this.applyTheme();
      this.requestRender();
    });
    this.themeWatch.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    this.resize = new ResizeObserver(() => this.onResize());
    this.resize.observe(host);
    this.onResize();
  }

  /** Rebuilds what changed since the last call (geometry once, path and markers when samples arrive). */
  sync(data: ReplayData): void {
    this.data = data;
    const { scene3d, series } = data;
    if (scene3d.scene !== this.sceneRef) {
      disposeBodies(this.bodies);
      this.sceneRef = scene3d.scene;
      this.bodies = scene3d.scene ? buildBodies(scene3d.scene.bodies, scene3d.scene.geoms) : [];
      for (const b of this.bodies) this.scene.add(b.group);
      this.sample = -1;
      this.fitted = false;
    }
    if (series.version !== this.drawnVersions.series) this.markers.buildPath(series);
    if (scene3d.version !== this.drawnVersions.scene) this.markers.buildMarkers(scene3d);
    this.drawnVersions = { scene: scene3d.version, series: series.version };
    this.requestRender();
  }

  /** Poses every body at sample i (bodies without poses keep the recorded geometry's frame). */
  setSample(i: number): void {
    const { scene3d, series } = this.data;
    if (series.length === 0) return;
    i = Math.max(0, Math.min(series.length - 1, i));
    const p = this.pose;
    for (let b = 0; b < this.bodies.length; b++) {
      if (!scene3d.pose(i, b, p)) continue;
      const g = this.bodies[b].group;
      g.position.set(p[0], p[1], p[2]);
      g.quaternion.set(p[4], p[5], p[6], p[3]);
    }
    this.markers.setSample(i, series, scene3d, this.bodies);
    this.sample = i;
    if (!this.fitted) this.fit();
    this.requestRender();
  }

  /** The sun above and to the side of `centre`; its shadow box covers `radius` around it. */
  private placeSun(centre: Vector3, radius: number): void {
    const r = Math.max(0.5, radius);
    this.sun.position.copy(centre).add(new Vector3(0.6, -0.4, 1.5).multiplyScalar(2 * r));
    this.sun.target.position.copy(centre);
    Object.assign(this.sun.shadow.camera, { left: -1.5 * r, right: 1.5 * r, top: 1.5 * r, bottom: -1.5 * r, near: 0.1, far: 8 * r });
    this.sun.shadow.camera.updateProjectionMatrix();
  }

  /**
   * Frames what moves (robot links, objects), the path and the waypoints, seen from the front-right and above;
   * fixtures (table, floor) only when nothing moves.
   */
  fit(): void {
    this.scene.updateMatrixWorld(true);
    const box = new Box3();
    const { scene3d } = this.data;
    const robot = scene3d.robotBodies(), objects = scene3d.objects();
    const moving = this.bodies.filter((b) => robot.has(b.group.name) || objects.has(b.group.name));
    for (const b of moving.length ? moving : this.bodies) for (const m of b.meshes) if (m.userData.kind !== 'plane') box.expandByObject(m);
    // The workspace: where the end effector went, what it was told to reach, the objects.
    const work = new Box3();
    const s = this.data.series;
    const step = Math.max(1, Math.floor(s.length / 500));
    for (let i = 0; i < s.length; i += step) work.expandByPoint(new Vector3(s.x[i], s.y[i], s.z[i]));
    for (const w of this.data.scene3d.waypoints()) work.expandByPoint(new Vector3(...w.pos));
    for (const b of this.bodies) if (objects.has(b.group.name)) for (const m of b.meshes) work.expandByObject(m);
    box.union(work);
    if (box.isEmpty()) box.set(new Vector3(-0.5, -0.5, 0), new Vector3(0.5, 0.5, 1));
    // Aim between the whole box and the workspace, so the robot is in view and the objects are not at the edge.
    const centre = box.getCenter(new Vector3());
    if (!work.isEmpty()) centre.lerp(work.getCenter(new Vector3()), 0.5);
    const radius = Math.max(0.1, box.getSize(new Vector3()).length() / 2);
    const dist = (radius / Math.sin((this.camera.fov * Math.PI) / 360)) * 1.05;
    const dir = new Vector3(1.1, 0.7, 0.6).normalize();
    this.placeSun(centre, radius * 1.5);
    this.camera.position.copy(centre).addScaledVector(dir, dist);
    this.camera.near = Math.max(0.005, dist / 200);
    this.camera.far = dist * 20;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
    this.fitted = true;
    this.requestRender();
  }

  /** Background and marker colours from the VS Code theme (called again when the body's theme class changes). */
  private applyTheme(): void {
    this.scene.background = cssColor('--vscode-editor-background', '#1e1e1e');
    this.markers.applyTheme();
  }

  /** Playback or orbiting in progress: on a slow renderer, draw those frames at half resolution. */
  setInteractive(change: Partial<Replay3dView['interactive']>): void {
    Object.assign(this.interactive, change);
    if (this.quality !== 'reduced') return;
    const busy = this.interactive.playing || this.interactive.orbiting;
    const ratio = this.basePixelRatio * (busy ? 0.5 : 1);
    if (this.renderer.getPixelRatio() === ratio) return;
    this.renderer.setPixelRatio(ratio);
    this.onResize();
  }

  private onResize(): void {
    const w = Math.max(1, this.host.clientWidth), h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  requestRender(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.renderNow());
  }

  /** Draws now (the test hook flushes through this). */
  renderNow(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (this.host.clientWidth === 0) return; // hidden tab
    this.renderer.render(this.scene, this.camera);
    this.renders++;
  }

  /**
   * Renders and reads the frame back in the same task (the drawing buffer is still intact): the top-left
   * corner's colour and how many pixels are clearly red, green or blue (for tests).
   */
  pixels(): { corner: string; hues: { red: number; green: number; blue: number } } {
    this.renderNow();
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(4 * w * h);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const hues = { red: 0, green: 0, blue: 0 };
    for (let k = 0; k < px.length; k += 4) {
      const r = px[k], g = px[k + 1], b = px[k + 2];
      if (r > 90 && r > 1.8 * g && r > 1.8 * b) hues.red++;
      else if (g > 70 && g > 1.4 * r && g > 1.4 * b) hues.green++;
      else if (b > 90 && b > 1.8 * r && b > 1.4 * g) hues.blue++;
    }
    const top = 4 * ((h - 2) * w + 1);
    const corner = '#' + [px[top], px[top + 1], px[top + 2]].map((v) => v.toString(16).padStart(2, '0')).join('');
    return { corner, hues };
  }

  /** World pose of a body as drawn: [x, y, z, qw, qx, qy, qz]. */
  bodyPose(name: string): number[] | undefined {
    const g = this.bodies.find((b) => b.group.name === name)?.group;
    return g && [g.position.x, g.position.y, g.position.z, g.quaternion.w, g.quaternion.x, g.quaternion.y, g.quaternion.z];
  }

  /** Names of the bodies tinted as colliding now. */
  hotBodies(): string[] {
    return this.bodies.filter((b) => b.materials.some((m) => m.userData.hot === true)).map((b) => b.group.name);
  }

  camera3(): { position: number[]; target: number[] } {
    return { position: this.camera.position.toArray(), target: this.controls.target.toArray() };
  }

  stats(): ReplayStats {
    return {
      geomMeshes: this.bodies.reduce((k, b) => k + b.meshes.length, 0),
      bodies: this.bodies.length,
      ...this.markers.counts(),
      renders: this.renders,
    };
  }

  get currentSample(): number {
    return this.sample;
  }

  dispose(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.themeWatch.disconnect();
    this.controls.dispose();
    disposeBodies(this.bodies);
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
