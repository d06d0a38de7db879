import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:5163';
const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'owner-password' }) });
const { token } = await login.json();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
for (const [name, viewport] of [['desktop', { width: 1440, height: 1000 }], ['phone', { width: 390, height: 844 }]]) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => m.type() === 'error' && console.log('console error:', m.text()));
  await page.addInitScript((t) => localStorage.setItem('token', t), token);
  await page.goto(`${base}/admin/dashboard`);
  if (name === 'phone') { await page.getByRole('button', { name: 'Open menu' }).click(); }
  await page.getByRole('button', { name: 'Node.js' }).click();
  await page.getByText('Server Status').waitFor();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/nodejs-${name}.png`, fullPage: true });
  if (name === 'desktop') {
    await page.getByLabel('Rate Limit Max Requests').fill('250');
    await page.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText('Node.js configuration saved!').waitFor();
    await page.screenshot({ path: `/tmp/shots/nodejs-saved.png`, fullPage: true });
    page.once('dialog', (d) => { console.log('dialog:', d.message()); d.accept(); });
    await page.getByRole('button', { name: 'Restart Server' }).click();
    await page.getByText('Server restart initiated...').waitFor();
    await page.screenshot({ path: `/tmp/shots/nodejs-restarted.png`, fullPage: true });
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/tmp/shots/nodejs-after.png`, fullPage: true });
  }
  await page.close();
}
await browser.close();
