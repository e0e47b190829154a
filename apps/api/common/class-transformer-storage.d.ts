// class-transformer's metadata storage (the one @nestjs/mapped-types reads too) ships its types under types/.
declare module 'class-transformer/cjs/storage' {
  export * from 'class-transformer/types/storage';
}
