/**
 * Debian's Chromium, headless, driven by playwright-core, as every page test starts it: the
 * flags keep it off this machine's closed network (its background connections are refused).
 */
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface LaunchOptions { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean }

/** A browser with its profile in `profileDir` (a new, empty directory), pages 1280 × 900 unless told. */
export const launchChromium = (profileDir: string, { viewport = { width: 1280, height: 900 }, javaScriptEnabled }: LaunchOptions = {}): Promise<BrowserContext> =>
  chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, viewport, javaScriptEnabled, args: ARGS });
