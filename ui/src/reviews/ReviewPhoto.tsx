import { Anchor, Image, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '../api';
import { reviewPhoto, type ProductReview } from '../api/reviews';

/** A review's photo: the picture once the renderer has checked it, else where its check stands. */
export function ReviewPhoto({ review }: { review: ProductReview }) {
  const photo = review.photo;
  const ready = photo?.status === 'ready';
  const file = useQuery({
    queryKey: ['product-review-photo', review.id],
    queryFn: ({ signal }) => reviewPhoto(api, photo?.url ?? '', signal),
    enabled: ready,
    staleTime: Infinity,
  });
  const src = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => { if (src) URL.revokeObjectURL(src); }, [src]);
  if (!photo) return null;
  if (photo.status === 'pending') return <Text size="xs" c="dimmed">A photo is being checked.</Text>;
  if (photo.status === 'rejected') return <Text size="xs" c="red">The photo was refused: {photo.message}</Text>;
  if (!src) return null;
  return (
    <Anchor href={src} target="_blank" rel="noreferrer" aria-label={`Photo by ${review.author}, full size`}>
      <Image src={src} alt={`Photo by ${review.author}`} w={120} h={120} fit="cover" radius="sm" />
    </Anchor>
  );
}
