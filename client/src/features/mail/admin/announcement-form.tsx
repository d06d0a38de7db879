import type { Segment, SegmentKind } from '@common/schemas/mail-members';
import { type FormEvent, useId, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { MarkdownField } from '../../../components/console/markdown-field';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import { useCourseList } from '../../courses/admin/api';
import { useAnnouncementPreview, useQueueAnnouncement, useRecipientCount, useSendTest } from '../api';

const SEGMENTS: ReadonlyArray<{ value: SegmentKind; label: string }> = [
  { value: 'everyone', label: 'Every member' },
  { value: 'free', label: 'Free members' },
  { value: 'paid', label: 'Paid members' },
  { value: 'course', label: 'Members of a course' },
  { value: 'completed', label: 'Members who completed a course' },
];

const numberFormat = new Intl.NumberFormat();

/**
 * Writing an announcement: subject, Markdown with the preview members will read, the segment
 * and how many it holds, an optional time to send; "Send me a test" first, then send or schedule.
 */
export function AnnouncementForm() {
  const ids = useId();
  const [subject, setSubject] = useState('');
  const [markdown, setMarkdown] = useState('');
  const [kind, setKind] = useState<SegmentKind>('everyone');
  const [courseId, setCourseId] = useState('');
  const [sendAt, setSendAt] = useState('');
  const courses = useCourseList();
  const needsCourse = kind === 'course' || kind === 'completed';
  const segment: Segment | null = needsCourse
    ? courseId
      ? { kind, courseId }
      : null
    : { kind: kind as 'everyone' | 'free' | 'paid' };
  const count = useRecipientCount(segment);
  const preview = useAnnouncementPreview({ subject, markdown });
  const test = useSendTest();
  const queue = useQueueAnnouncement();
  const notices = useNotices();
  const confirm = useConfirm();

  async function onTest() {
    try {
      const answer = await test.mutateAsync({ subject, markdown });
      notices.success(answer.message, { seconds: 5 });
    } catch (error) {
      notices.error(`The test was not sent: ${(error as Error).message}`);
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!segment) return;
    const recipients = count.data ? numberFormat.format(count.data.recipients) : 'the';
    const when = sendAt ? `on ${new Date(sendAt).toLocaleString()}` : 'now';
    const sure = await confirm({
      title: sendAt ? 'Schedule this announcement?' : 'Send this announcement?',
      message: `“${subject}” goes to ${recipients} member(s) (${count.data?.label ?? 'the segment'}) ${when}. Members who turned announcements off are skipped.`,
      confirmLabel: sendAt ? 'Schedule' : 'Send',
    });
    if (!sure) return;
    try {
      const queued = await queue.mutateAsync({
        subject,
        markdown,
        segment,
        ...(sendAt ? { scheduledAt: new Date(sendAt).toISOString() } : {}),
      });
      notices.success(
        queued.state === 'scheduled' && sendAt
          ? 'Announcement scheduled.'
          : 'Announcement queued: it is going out.',
        { seconds: 5 },
      );
      setSubject('');
      setMarkdown('');
      setSendAt('');
    } catch (error) {
      notices.error(`The announcement was not queued: ${(error as Error).message}`);
    }
  }

  const courseOptions = [
    { value: '', label: 'Choose a course…' },
    ...(courses.data ?? []).map((course) => ({ value: course.id, label: course.title })),
  ];
  const ready = subject.trim() !== '' && markdown.trim() !== '' && segment !== null;
  return (
    <Card className="sm:p-6">
      <section aria-labelledby={`${ids}-heading`}>
        <h2 id={`${ids}-heading`} className="text-lg font-semibold text-white">
          New announcement
        </h2>
        <form onSubmit={onSubmit} className="mt-4 space-y-4">
          <TextField
            label="Subject"
            value={subject}
            maxLength={200}
            required
            onChange={(e) => setSubject(e.target.value)}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Send to"
              value={kind}
              options={SEGMENTS}
              onChange={(e) => setKind(e.target.value as SegmentKind)}
            />
            {needsCourse && (
              <SelectField
                label="Course"
                value={courseId}
                options={courseOptions}
                onChange={(e) => setCourseId(e.target.value)}
              />
            )}
          </div>
          <p className="text-sm text-stone-300" role="status" data-testid="recipient-count">
            {segment === null
              ? 'Choose a course to see how many members will receive it.'
              : count.data
                ? `${numberFormat.format(count.data.recipients)} member(s) will receive it (${count.data.label}), less those who turned announcements off.`
                : count.isError
                  ? `Could not count: ${count.error.message}`
                  : 'Counting…'}
          </p>
          <MarkdownField
            id={ids}
            value={markdown}
            onChange={setMarkdown}
            html={preview}
            height="min-h-60"
            placeholder={'Hello!\n\nWrite in **Markdown**: headings, lists, [links](https://example.com).'}
            empty={<p className="text-sm text-stone-400">The mail as members will read it shows here.</p>}
          />
          <TextField
            label="Send at (optional)"
            type="datetime-local"
            value={sendAt}
            onChange={(e) => setSendAt(e.target.value)}
            hint="Leave empty to send now. Every mail carries a one-click unsubscribe link."
            className="sm:max-w-xs"
          />
          <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" disabled={!ready || test.isPending} onClick={onTest}>
              {test.isPending ? 'Sending the test…' : 'Send me a test'}
            </Button>
            <Button type="submit" disabled={!ready || queue.isPending}>
              {sendAt ? 'Schedule' : 'Send'}
            </Button>
          </div>
        </form>
      </section>
    </Card>
  );
}
