import { Box, Card, Group, Image, Modal, Stack, Text, Typography, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { FeaturedArticle } from '../api/featured';
import { FEATURED_INTERVAL_MS, FEATURED_MAX_WIDTH, featuredQuery } from './query';

/**
 * The featured articles (GET /api/public/featured-info) as a carousel on large screens. A click
 * opens the article's link in a new tab, or the article in a large modal with its subject, banner
 * and HTML (sanitized by the bff when stored and again when served).
 */
export function FeaturedCarousel() {
  const featured = useQuery(featuredQuery);
  const articles = featured.data ?? [];
  const [current, setCurrent] = useState(0);
  const [open, setOpen] = useState<FeaturedArticle | null>(null);
  const count = articles.length;
  const rotate = count > 1 && open === null;
  useEffect(() => {
    if (!rotate) return;
    const timer = window.setInterval(() => setCurrent((i) => (i + 1) % count), FEATURED_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [rotate, count]);
  if (count === 0) return null;
  const shownIndex = current % count;
  const shown = articles[shownIndex]!;

  const choose = (article: FeaturedArticle) => {
    if (article.link) window.open(article.link, '_blank', 'noopener,noreferrer');
    else setOpen(article);
  };

  return (
    <Box visibleFrom="lg" maw={FEATURED_MAX_WIDTH} w="100%" data-testid="featured-carousel">
      <Card withBorder radius="lg" padding={0}>
        <UnstyledButton
          onClick={() => choose(shown)}
          aria-label={shown.subject}
          data-testid="featured-slide"
          data-article={shown.id}
          style={{ display: 'block', width: '100%' }}
        >
          {shown.banner && <Image src={shown.banner} alt="" h={180} fit="cover" />}
          <Text fw={600} p="md" lineClamp={1}>
            {shown.subject}
          </Text>
        </UnstyledButton>
      </Card>
      {count > 1 && (
        <Group gap={6} justify="center" mt="xs" role="tablist" aria-label="Featured articles">
          {articles.map((article, i) => (
            <UnstyledButton
              key={article.id}
              role="tab"
              aria-selected={i === shownIndex}
              aria-label={article.subject}
              onClick={() => setCurrent(i)}
              w={i === shownIndex ? 18 : 8}
              h={8}
              bg={i === shownIndex ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}
              style={{ borderRadius: 4, transition: 'width 150ms ease' }}
            />
          ))}
        </Group>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} size="xl" title={open?.subject} centered>
        {open && (
          <Stack gap="md" data-testid="featured-article">
            {open.banner && <Image src={open.banner} alt="" radius="md" />}
            <Typography>
              <div dangerouslySetInnerHTML={{ __html: open.content }} />
            </Typography>
          </Stack>
        )}
      </Modal>
    </Box>
  );
}
