"""What a person reads: figures and their style, the words of numbers, Markdown tables."""
