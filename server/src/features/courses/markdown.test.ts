// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

/**
 * Vectors from the OWASP XSS Filter Evasion Cheat Sheet (and a few Markdown-specific ones), as a
 * lesson's Markdown could carry them. The output is parsed as a browser would parse it: it must
 * hold no element beyond the allowed ones (no script, frame, object, embed, form, style, meta,
 * svg), no event handler or style attribute, and no address but http(s), mailto and own paths.
 * Text that merely reads like a tag (escaped) is harmless and allowed.
 */
const VECTORS: Array<[name: string, markdown: string]> = [
  ['basic script', '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>'],
  [
    'polyglot',
    "javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/\"/+/onmouseover=1/+/[*/[]/+alert(1)//'>",
  ],
  ['img javascript src', '<IMG SRC="javascript:alert(\'XSS\');">'],
  ['img no quotes', "<IMG SRC=javascript:alert('XSS')>"],
  ['img case', "<IMG SRC=JaVaScRiPt:alert('XSS')>"],
  ['img html entities', '<IMG SRC=javascript:alert(&quot;XSS&quot;)>'],
  ['img grave accent', '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>'],
  ['malformed a', '\\<a onmouseover="alert(document.cookie)"\\>xxs link\\</a\\>'],
  ['malformed img', '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>'],
  ['fromCharCode', '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>'],
  ['default src onerror', '<IMG SRC=# onmouseover="alert(\'xxs\')">'],
  ['empty src onerror', '<IMG SRC= onmouseover="alert(\'xxs\')">'],
  ['no src onerror', '<IMG onmouseover="alert(\'xxs\')">'],
  ['onerror alert', '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>'],
  [
    'onerror encoded',
    '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  ],
  [
    'decimal entities',
    '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  ],
  [
    'hex entities',
    '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  ],
  ['embedded tab', '<IMG SRC="jav\tascript:alert(\'XSS\');">'],
  ['embedded newline', '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">'],
  ['spaces and meta chars', '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">'],
  ['non-alpha non-digit', '<SCRIPT/XSS SRC="http://xss.example/xss.js"></SCRIPT>'],
  ['body onload', '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>'],
  ['extraneous open brackets', '<<SCRIPT>alert("XSS");//\\<</SCRIPT>'],
  ['no closing script', '<SCRIPT SRC=http://xss.example/xss.js?< B >'],
  ['protocol resolution', '<SCRIPT SRC=//xss.example/.j>'],
  ['half open iframe', '<iframe src=http://xss.example/scriptlet.html <'],
  ['end title', '</TITLE><SCRIPT>alert("XSS");</SCRIPT>'],
  ['input image', '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">'],
  ['body image', '<BODY BACKGROUND="javascript:alert(\'XSS\')">'],
  ['img dynsrc', '<IMG DYNSRC="javascript:alert(\'XSS\')">'],
  ['img lowsrc', '<IMG LOWSRC="javascript:alert(\'XSS\')">'],
  ['svg onload', "<svg/onload=alert('XSS')>"],
  [
    'list-style-image',
    '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
  ],
  ['vbscript', '<IMG SRC=\'vbscript:msgbox("XSS")\'>'],
  ['body onload 2', "<BODY ONLOAD=alert('XSS')>"],
  ['bgsound', '<BGSOUND SRC="javascript:alert(\'XSS\');">'],
  ['link stylesheet', '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">'],
  ['style tag', "<STYLE>@import'http://xss.example/xss.css';</STYLE>"],
  ['meta refresh', '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">'],
  [
    'meta refresh data',
    '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  ],
  ['iframe', '<IFRAME SRC="javascript:alert(\'XSS\');"></IFRAME>'],
  ['iframe event', '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>'],
  ['frameset', '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>'],
  ['table background', '<TABLE BACKGROUND="javascript:alert(\'XSS\')">'],
  ['td background', '<TABLE><TD BACKGROUND="javascript:alert(\'XSS\')">'],
  ['div background-image', '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">'],
  ['div expression', '<DIV STYLE="width: expression(alert(\'XSS\'));">'],
  ['base tag', '<BASE HREF="javascript:alert(\'XSS\');//">'],
  ['object', '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/scriptlet.html"></OBJECT>'],
  [
    'embed svg',
    '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  ],
  ['xml data island', '<XML ID="xss"><I><B><IMG SRC="javas<!-- -->cript:alert(\'XSS\')"></B></I></XML>'],
  ['a href javascript', '<A HREF="javascript:document.location=\'http://xss.example/\'">XSS</A>'],
  ['a href entity javascript', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
  ['form action', '<form action="javascript:alert(1)"><button>go</button></form>'],
  ['math href', '<math><a xlink:href="javascript:alert(1)">x</a></math>'],
  ['details ontoggle', '<details open ontoggle=alert(1)>'],
  ['markdown link javascript', '[click me](javascript:alert(1))'],
  ['markdown link javascript encoded', '[click me](jav&#x61;script:alert(1))'],
  ['markdown link data', '[click me](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['markdown image javascript', '![x](javascript:alert(1))'],
  ['markdown image onerror', '![x" onerror="alert(1)](/media/image/a.png)'],
  ['markdown reference link', '[a][1]\n\n[1]: javascript:alert(1)'],
  ['markdown autolink', '<javascript:alert(1)>'],
  ['markdown link title break', '[a](https://example.com "title\\" onmouseover=\\"alert(1)")'],
  ['html in code fence survives as text only', '```html\n<script>alert(1)</script>\n```'],
];

/** Elements the renderer may leave; anything else in the output is a failure. */
const ALLOWED_ELEMENTS = new Set(
  'h1 h2 h3 h4 h5 h6 p br hr strong b em i del s sub sup mark blockquote ul ol li code pre kbd a img table thead tbody tr th td input span'.split(
    ' ',
  ),
);

/** What a browser would make of the HTML: every element, with its attributes, parsed for real. */
function problemsIn(html: string): string[] {
  const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const problems: string[] = [];
  for (const element of document.body.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (!ALLOWED_ELEMENTS.has(tag)) problems.push(`a <${tag}> element`);
    for (const { name, value } of element.attributes) {
      if (/^on/i.test(name)) problems.push(`an event handler ${name} on <${tag}>`);
      if (name === 'style') problems.push(`a style attribute on <${tag}>`);
      if (['href', 'src', 'action', 'formaction', 'background', 'data', 'xlink:href'].includes(name)) {
        // Browsers ignore control characters and spaces inside a scheme.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
        const url = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (!/^(https?:\/\/|mailto:|\/(?!\/)|#)/.test(url)) problems.push(`${name}="${value}" on <${tag}>`);
      }
    }
  }
  return problems;
}

describe('lesson Markdown is rendered safe (OWASP XSS filter evasion vectors)', () => {
  it.each(VECTORS)('%s', async (_name, markdown) => {
    const html = await renderMarkdown(markdown);
    expect(problemsIn(html), html).toEqual([]);
    expect(html).not.toMatch(/<script/i);
  });

  it('keeps what a lesson needs: headings, emphasis, lists, links, code, tables and the site’s pictures', async () => {
    const html = await renderMarkdown(
      [
        '# Week one',
        '',
        'Some **bold** and _calm_ words, a [guide](https://example.com/guide) and a [page](/courses).',
        '',
        '- one',
        '- two',
        '',
        '![Breathing](/media/image/breath.png)',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '```js',
        'const x = 1 < 2;',
        '```',
      ].join('\n'),
    );
    expect(html).toContain('<h2>Week one</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain(
      '<a href="https://example.com/guide" rel="noopener noreferrer nofollow" target="_blank">guide</a>',
    );
    expect(html).toContain('<a href="/courses">page</a>');
    expect(html).toContain('<img src="/media/image/breath.png" alt="Breathing" />');
    expect(html).toContain('<table>');
    expect(html).toContain('<code class="language-js">const x = 1 &lt; 2;');
  });

  it('drops pictures from other sites (the page would refuse them anyway)', async () => {
    expect(await renderMarkdown('![x](https://tracker.example/pixel.gif)')).toBe('<p></p>');
  });
});
