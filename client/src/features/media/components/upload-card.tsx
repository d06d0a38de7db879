import type { MediaCategory } from '@common/media';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { CATEGORY_LABELS } from '../upload-rules';
import { UploadZone } from './upload-zone';

export interface UploadCardProps {
  category: MediaCategory;
  disabled: boolean;
  onFiles: (files: File[]) => void;
  children: ReactNode;
}

export function UploadCard({ category, disabled, onFiles, children }: UploadCardProps) {
  return (
    <Card className="!p-5 sm:!p-6">
      <h2 className="mb-4 text-lg font-semibold text-white">Upload {CATEGORY_LABELS[category]}</h2>
      <UploadZone category={category} disabled={disabled} onFiles={onFiles} />
      {children}
    </Card>
  );
}
