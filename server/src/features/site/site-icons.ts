import { stat } from 'node:fs/promises';
import type { SiteService } from './site.service';
import { webManifest } from './site-html';
import { type IconSize, makeIcon } from './site-images';

/**
 * The favicon and touch icons in the sizes browsers ask for, made with sharp from the owner's icon
 * the first time each is asked for after a change, then kept in memory. Made from the library's
 * file, which every machine shares, so every instance answers the same icon.
 */
export class SiteIcons {
  private made = new Map<string, Promise<Buffer>>();

  constructor(private readonly site: SiteService) {}

  async png(size: IconSize): Promise<Buffer | null> {
    const file = await this.site.iconFile();
    if (!file) return null;
    const { mtimeMs } = await stat(file);
    const key = `${this.site.revision}:${file}:${mtimeMs}:${size}`;
    let icon = this.made.get(key);
    if (!icon) {
      if (this.made.size > 20) this.made.clear();
      icon = makeIcon(file, size);
      // A failure is not kept: the next request tries again.
      icon.catch(() => this.made.delete(key));
      this.made.set(key, icon);
    }
    return icon;
  }

  async manifest(): Promise<string> {
    return webManifest(await this.site.publicSite());
  }
}
