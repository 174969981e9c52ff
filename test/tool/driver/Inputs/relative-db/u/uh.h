#define UH 1
